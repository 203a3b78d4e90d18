//===- GroupedTest.cpp - Group tables, offsets, grouped plans -------------===//
//
// The group walk of grouped (MoE) kernels: the table the prep kernel writes
// (its per-thread code, run on the CPU), the offsets' rules, --groups, and
// the launch plan of a grouped manifest.
//
//===----------------------------------------------------------------------===//

#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/GroupTable.h"
#include "gemm/Runtime/Plan.h"

#include "PlanFixtures.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <numeric>

using namespace gemm::bundle;
using namespace gemm::runtime;
using namespace gemm::runtime::grouped;
using namespace gemm::runtime::plan_fixtures;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

namespace {

/// Entry r of a table: {first row, group end, group, 0}.
std::vector<uint32_t> entry(const std::vector<uint32_t> &table, uint64_t r) {
  auto at = table.begin() + HeaderWords + EntryWords * r;
  return {at, at + EntryWords};
}

TEST(GroupTable, RaggedGroups) {
  // Groups of 128, 0, 77, 300 rows in units of 128: 1 + 0 + 1 + 3 units.
  std::vector<int64_t> offsets = offsetsOf({128, 0, 77, 300});
  EXPECT_THAT(offsets, ElementsAre(0, 128, 128, 205, 505));
  uint64_t capacity = maxRowUnits(505, 4, 128);
  EXPECT_EQ(capacity, 4u + 4);
  std::vector<uint32_t> table = buildGroupTable(offsets, 505, 128, capacity);
  EXPECT_EQ(table[0], 5u);
  EXPECT_EQ(table[1], 0u);
  EXPECT_THAT(entry(table, 0), ElementsAre(0, 128, 0, 0));
  EXPECT_THAT(entry(table, 1), ElementsAre(128, 205, 2, 0));
  EXPECT_THAT(entry(table, 2), ElementsAre(205, 505, 3, 0));
  EXPECT_THAT(entry(table, 3), ElementsAre(333, 505, 3, 0));
  EXPECT_THAT(entry(table, 4), ElementsAre(461, 505, 3, 0));
}

TEST(GroupTable, EveryRowInExactlyOneUnitOfItsGroup) {
  // The sizes the GPU check uses, in units of 128 and 256 rows (cluster
  // M = 2): every row of every group is covered by one unit of that group,
  // and no unit starts at or past its group's end.
  std::vector<uint64_t> sizes = {0, 1, 63, 64, 65, 1000, 0, 127, 128, 129, 7};
  std::vector<int64_t> offsets = offsetsOf(sizes);
  uint64_t rows = uint64_t(offsets.back());
  for (uint64_t unitRows : {64u, 128u, 256u}) {
    std::vector<uint32_t> table = buildGroupTable(
        offsets, rows, unitRows, maxRowUnits(rows, sizes.size(), unitRows));
    std::vector<int> covered(rows, 0);
    for (uint64_t r = 0; r < table[0]; ++r) {
      std::vector<uint32_t> e = entry(table, r);
      uint32_t g = e[2];
      ASSERT_LT(g, sizes.size());
      EXPECT_EQ(e[1], uint32_t(offsets[g + 1]));
      EXPECT_GE(e[0], uint32_t(offsets[g]));
      EXPECT_LT(e[0], e[1]);
      for (uint64_t row = e[0]; row < std::min<uint64_t>(e[0] + unitRows, e[1]);
           ++row)
        ++covered[row];
    }
    for (uint64_t row = 0; row < rows; ++row)
      EXPECT_EQ(covered[row], 1) << "row " << row << ", units of " << unitRows;
  }
}

TEST(GroupTable, InvalidOffsetsGiveNoUnitsAndTheGroup) {
  // Decreasing at group 1: no units (the kernel writes nothing), error 2.
  std::vector<uint32_t> table =
      buildGroupTable({0, 100, 50, 200}, 200, 64, maxRowUnits(200, 3, 64));
  EXPECT_EQ(table[0], 0u);
  EXPECT_EQ(table[1], 2u);
  // Past the end of A at group 0.
  table = buildGroupTable({0, 300}, 200, 64, maxRowUnits(200, 1, 64));
  EXPECT_EQ(table[0], 0u);
  EXPECT_EQ(table[1], 1u);
  // Overlapping ranges never write past the table's capacity.
  table = buildGroupTable({0, 200, 0, 200, 0, 200}, 200, 64, 4);
  EXPECT_EQ(table.size(), HeaderWords + 4 * EntryWords);
  EXPECT_EQ(table[0], 0u);
  EXPECT_EQ(table[1], 2u);
}

TEST(GroupTable, EntriesOfATableOfItsBytes) {
  // The capacity the prep kernel and the simulator give buildGroupTable /
  // writeUnit for the planner's buffer: its entries after the header.
  EXPECT_EQ(tableEntries(tableBytes(505, 4, 128)), maxRowUnits(505, 4, 128));
  EXPECT_EQ(tableEntries(tableBytes(1, 1, 64)), 2u);
  EXPECT_EQ(tableEntries(16), 0u);
  EXPECT_EQ(tableEntries(0), 0u);
}

TEST(GroupTable, CheckOffsets) {
  EXPECT_THAT(checkGroupOffsets({0, 128, 128, 205}, 205), IsEmpty());
  EXPECT_THAT(checkGroupOffsets({0}, 10),
              ElementsAre(HasSubstr("a group count of 0")));
  EXPECT_THAT(checkGroupOffsets({0, 100, 50}, 100),
              ElementsAre(HasSubstr("the offsets decrease at group 1 "
                                    "(offsets[1] = 100 > offsets[2] = 50)")));
  EXPECT_THAT(checkGroupOffsets({0, 100, 150}, 120),
              ElementsAre(HasSubstr("group 1 ends at row 150, past the end "
                                    "of A (120 rows)")));
  EXPECT_THAT(checkGroupOffsets({-1, 10}, 10),
              ElementsAre(HasSubstr("offsets[0] = -1 is negative")));
}

TEST(GroupTable, ParseGroups) {
  EXPECT_THAT(parseGroups("128,0,77,300"), ElementsAre(128, 0, 77, 300));
  std::vector<uint64_t> random = parseGroups("random:64:16384:7");
  EXPECT_EQ(random.size(), 64u);
  EXPECT_EQ(std::accumulate(random.begin(), random.end(), uint64_t(0)), 16384u);
  EXPECT_EQ(random, parseGroups("random:64:16384:7"));
  EXPECT_NE(random, parseGroups("random:64:16384:8"));
  auto message = [](const std::string &spec) {
    try {
      parseGroups(spec);
    } catch (const Error &e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(message("random:0:100:1"), HasSubstr("a group count of 0"));
  EXPECT_THAT(message("random:4:100"),
              HasSubstr("the generator is random:G:totalM:seed"));
  EXPECT_THAT(message("12,x,3"), HasSubstr("group size 'x' is not a "
                                           "non-negative integer"));
  // Without exceptions (gemm-sim): the same rows or the same message.
  std::string error;
  EXPECT_THAT(*tryParseGroups("128,0,77", error), ElementsAre(128, 0, 77));
  EXPECT_EQ(error, "");
  EXPECT_EQ(tryParseGroups("12,x,3", error), std::nullopt);
  EXPECT_EQ(error, message("12,x,3"));
  EXPECT_THAT(message(""), HasSubstr("is not a non-negative integer"));
}

/// A grouped kernel's manifest: A, B, C descriptors, M, N, K, the group
/// count, the group table, C's pointer and leading dimension.
KernelManifest groupedManifest() {
  KernelManifest m = manifest();
  m.params.push_back(Param::problemSize(ProblemDim::Groups));
  m.params.push_back(Param::groupTable());
  m.params.push_back(Param::pointer(Tensor::C));
  m.params.push_back(Param::leadingDim(Tensor::C));
  return m;
}

Problem groupedProblem(const std::vector<uint64_t> &sizes, uint64_t n,
                       uint64_t k) {
  Problem p;
  p.n = n;
  p.k = k;
  p.groups = sizes.size();
  p.groupOffsets = offsetsOf(sizes);
  p.m = uint64_t(p.groupOffsets.back());
  return p;
}

TEST(GroupedPlan, Manifest) {
  EXPECT_THAT(groupedManifest().validate(), IsEmpty());
  EXPECT_TRUE(groupedManifest().hasGroups());
  EXPECT_FALSE(manifest().hasGroups());
  KernelManifest noTable = groupedManifest();
  noTable.params.erase(noTable.params.begin() + 7);
  EXPECT_THAT(noTable.validate(),
              ElementsAre(HasSubstr("problem_size groups and group_table go "
                                    "together")));
  KernelManifest noPointer = groupedManifest();
  noPointer.params.resize(8);
  EXPECT_THAT(noPointer.validate(),
              ElementsAre(HasSubstr("a grouped kernel takes tma_descriptors "
                                    "of a, b and c and a pointer (with "
                                    "leading_dim) of c only")));
  // The JSON round trip keeps the new kinds.
  KernelManifest m = groupedManifest();
  ParseResult parsed = parseManifestText(m.toJsonString());
  ASSERT_TRUE(parsed.manifest) << parsed.errors.front();
  EXPECT_EQ(*parsed.manifest, m);
}

TEST(GroupedPlan, Descriptors) {
  LaunchPlan plan =
      planLaunch(groupedManifest(), groupedProblem({128, 0, 77, 300}, 512, 256),
                 options());
  // A and C: one matrix of all groups' rows; B: one entry per group.
  EXPECT_EQ(plan.tma[0].rank, 2u);
  EXPECT_EQ(plan.tma[0].globalDim[1], 505u);
  EXPECT_EQ(plan.tma[1].rank, 3u);
  EXPECT_EQ(plan.tma[1].globalDim[2], 4u);
  EXPECT_EQ(plan.tma[1].globalStrides[1], 512u * 256 * 2);
  EXPECT_EQ(plan.tma[2].rank, 2u);
  EXPECT_EQ(plan.matrix(Tensor::B).bytes(), 4u * 512 * 256 * 2);
  EXPECT_EQ(plan.args[6].value, 4u);
  EXPECT_EQ(plan.args[7].kind, ParamKind::GroupTable);
  EXPECT_EQ(plan.args[9].leadingDim, 512u);
  // Row units of 128 rows: at most ceil(505 / 128) + 4 = 8, by 2 along N.
  EXPECT_EQ(plan.groupUnitRows, 128u);
  EXPECT_EQ(plan.groupTableBytes, 16u * (1 + 8));
  EXPECT_EQ(plan.clusterUnits, 8u * 2);
  EXPECT_EQ(plan.grid[0], 16u);
  EXPECT_DOUBLE_EQ(plan.problem.flops(), 2.0 * 505 * 512 * 256);
  EXPECT_THAT(describePlan(plan),
              HasSubstr("group_table: 144 bytes (u64 address; the prep "
                        "kernel writes it from the device offsets"));
  EXPECT_THAT(describePlan(plan), HasSubstr("groups=4"));
}

TEST(GroupedPlan, Errors) {
  auto message = planError;
  Problem p = groupedProblem({10, 20}, 256, 64);
  p.groups = 0;
  p.groupOffsets.clear();
  EXPECT_THAT(message(groupedManifest(), p),
              HasSubstr("--groups: a group count of 0"));
  p = groupedProblem({10, 20}, 256, 60);
  EXPECT_THAT(message(groupedManifest(), p),
              HasSubstr("--k 60: grouped kernels read the groups' rows "
                        "where the caller holds them, through TMA (no "
                        "staging copies): k x bf16 = 120 bytes must be a "
                        "multiple of 16; pad k to a multiple of 8"));
  p = groupedProblem({10, 20}, 100, 64);
  EXPECT_THAT(message(groupedManifest(), p), HasSubstr("--n 100:"));
  p = groupedProblem({10, 20}, 256, 64);
  p.groupOffsets = {0, 20, 10};
  EXPECT_THAT(message(groupedManifest(), p),
              HasSubstr("the offsets decrease at group 1"));
  p.groupOffsets = {0, 10, 40};
  EXPECT_THAT(message(groupedManifest(), p),
              HasSubstr("group 1 ends at row 40, past the end of A (30 "
                        "rows)"));
  EXPECT_THAT(message(manifest(), groupedProblem({10}, 256, 64)),
              HasSubstr("kernel k is not grouped"));
}

} // namespace
