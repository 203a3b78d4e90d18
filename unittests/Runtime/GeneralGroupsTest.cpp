//===- GeneralGroupsTest.cpp - General grouped GEMM on the host -----------===//
//
// The records of general grouped kernels (grouped(general)) and the table
// the prep kernel writes from them (its per-thread code, run on the CPU):
// the records' rules, the tile prefix and the kernel's walk over it, the
// descriptors' extents per layout, --group-problems, the runner's packing,
// and the launch plan of a general manifest.
//
//===----------------------------------------------------------------------===//

#include "gemm/Runtime/Cublas.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/GroupProblems.h"
#include "gemm/Runtime/Plan.h"

#include "PlanFixtures.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>

using namespace gemm::bundle;
using namespace gemm::runtime;
using namespace gemm::runtime::general;
using namespace gemm::runtime::plan_fixtures;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

namespace {

GroupProblem record(int32_t m, int32_t n, int32_t k) {
  GroupProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = 0x10000;
  p.b = 0x20000;
  p.c = 0x30000;
  // K-major A and B, row-major C, lines rounded up to 8 bf16.
  p.lda = (k + 7) / 8 * 8;
  p.ldb = (k + 7) / 8 * 8;
  p.ldc = (n + 7) / 8 * 8;
  return p;
}

TEST(GeneralGroups, TableLayout) {
  EXPECT_EQ(sizeof(GroupProblem), 64u);
  // Header and 8 entries: 144 bytes, the maps from 256 on.
  EXPECT_EQ(descriptorsOffset(8), 256u);
  EXPECT_EQ(descriptorsOffset(7), 128u);
  EXPECT_EQ(descriptorsOffset(1), 128u);
  EXPECT_EQ(tableBytes(8), 256u + 8 * 3 * 128);
  for (uint64_t g : {1u, 5u, 100u, 65536u})
    EXPECT_EQ(descriptorsOffset(g) % 128, 0u);
}

TEST(GeneralGroups, RecordRules) {
  GroupLayouts l;
  EXPECT_EQ(checkGroup(record(100, 72, 40), l), GroupError::None);
  // No tiles: nothing else is read.
  GroupProblem empty = record(0, 72, 0);
  empty.a = 0;
  empty.lda = 3;
  EXPECT_EQ(checkGroup(empty, l), GroupError::None);
  EXPECT_EQ(checkGroup(record(100, 0, 40), l), GroupError::None);
  EXPECT_EQ(checkGroup(record(-1, 72, 40), l), GroupError::NegativeSize);
  EXPECT_EQ(checkGroup(record(0, 72, -40), l), GroupError::NegativeSize);
  EXPECT_EQ(checkGroup(record(100, 72, 0), l), GroupError::EmptyK);
  GroupProblem p = record(100, 72, 40);
  p.b = 0;
  EXPECT_EQ(checkGroup(p, l), GroupError::NullPointer);
  p = record(100, 72, 40);
  p.c += 8;
  EXPECT_EQ(checkGroup(p, l), GroupError::MisalignedPointer);
  p = record(100, 72, 40);
  p.lda = 32;
  EXPECT_EQ(checkGroup(p, l), GroupError::ShortLeadingDim);
  p = record(100, 72, 40);
  p.ldc = 76;
  EXPECT_EQ(checkGroup(p, l), GroupError::MisalignedLeadingDim);
  p = record(100, 72, 40);
  p.ldb = int64_t(1) << 39;
  EXPECT_EQ(checkGroup(p, l), GroupError::TooLarge);
  p.ldb = -8;
  EXPECT_EQ(checkGroup(p, l), GroupError::ShortLeadingDim);
  // C's lines (N of them in a row-major C) must be whole 16-byte chunks:
  // N = 75 bf16 is refused even with an aligned ldc, M = 75 is not; a
  // column-major C the other way round; 4 f32 elements are one chunk.
  EXPECT_EQ(checkGroup(record(100, 75, 40), l), GroupError::PartialOutputChunk);
  EXPECT_EQ(checkGroup(record(75, 72, 40), l), GroupError::None);
  GroupLayouts columns;
  columns.cColumns = true;
  p = record(75, 72, 40);
  p.ldc = 80;
  EXPECT_EQ(checkGroup(p, columns), GroupError::PartialOutputChunk);
  p = record(72, 75, 40);
  p.ldc = 72;
  EXPECT_EQ(checkGroup(p, columns), GroupError::None);
  GroupLayouts f32;
  f32.outputBytes = 4;
  EXPECT_EQ(checkGroup(record(100, 76, 40), f32), GroupError::None);
  EXPECT_EQ(checkGroup(record(100, 74, 40), f32),
            GroupError::PartialOutputChunk);
  // No tiles, no lines.
  EXPECT_EQ(checkGroup(record(0, 75, 40), l), GroupError::None);
}

TEST(GeneralGroups, ExtentsFollowTheLayouts) {
  GroupProblem p = record(100, 72, 40);
  GroupLayouts kMajor;
  Extent a = extentOf(p, kMajor, 0), b = extentOf(p, kMajor, 1),
         c = extentOf(p, kMajor, 2);
  EXPECT_EQ(a.inner, 40u);
  EXPECT_EQ(a.outer, 100u);
  EXPECT_EQ(b.inner, 40u);
  EXPECT_EQ(b.outer, 72u);
  EXPECT_EQ(c.inner, 72u);
  EXPECT_EQ(c.outer, 100u);
  GroupLayouts mn;
  mn.aColumns = mn.bRows = mn.cColumns = true;
  mn.outputBytes = 4;
  a = extentOf(p, mn, 0);
  b = extentOf(p, mn, 1);
  c = extentOf(p, mn, 2);
  EXPECT_EQ(a.inner, 100u);
  EXPECT_EQ(a.outer, 40u);
  EXPECT_EQ(b.inner, 72u);
  EXPECT_EQ(b.outer, 40u);
  EXPECT_EQ(c.inner, 100u);
  EXPECT_EQ(c.outer, 72u);
  EXPECT_EQ(c.elementBytes, 4u);
  // An M-major A of 100 rows needs lda >= 100.
  EXPECT_EQ(checkGroup(p, mn), GroupError::ShortLeadingDim);
}

/// Entry g of a table: {first unit, M, N, K}.
std::vector<uint32_t> entry(const std::vector<uint32_t> &table, uint64_t g) {
  auto at = table.begin() + 4 + 4 * g;
  return {at, at + 4};
}

TEST(GeneralGroups, PrefixOverTheGroupsTiles) {
  // Units of 128 x 256: 1x1, none (M = 0), 2x1, 1x2, none (N = 0).
  std::vector<GroupProblem> groups = {record(128, 256, 64), record(0, 256, 64),
                                      record(129, 8, 72), record(1, 264, 8),
                                      record(77, 0, 8)};
  std::vector<uint32_t> table = buildGeneralTable(groups, {}, 128, 256);
  EXPECT_THAT(table, SizeIs(4 + 4 * 5));
  EXPECT_EQ(table[0], 5u);
  EXPECT_EQ(table[1], 0u);
  EXPECT_EQ(table[2], 0u);
  EXPECT_THAT(entry(table, 0), ElementsAre(0, 128, 256, 64));
  EXPECT_THAT(entry(table, 1), ElementsAre(1, 0, 256, 64));
  EXPECT_THAT(entry(table, 2), ElementsAre(1, 129, 8, 72));
  EXPECT_THAT(entry(table, 3), ElementsAre(3, 1, 264, 8));
  EXPECT_THAT(entry(table, 4), ElementsAre(5, 77, 0, 8));
}

/// The kernel's search (KernelBuilder::findGroup): the last group whose
/// first unit is <= unit.
uint32_t findGroup(const std::vector<uint32_t> &table, uint32_t groups,
                   uint32_t unit) {
  uint32_t lo = 0, hi = groups;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (entry(table, mid)[0] <= unit)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

TEST(GeneralGroups, EveryTileOfEveryGroupOnce) {
  // The sizes of the GPU check (bench/general-h200.sh), units of 128 x 128
  // and of a 2x1 cluster: the search maps the units onto the groups' tiles
  // one to one, empty groups included.
  std::vector<GroupProblem> groups;
  for (auto [m, n, k] : std::vector<std::array<int32_t, 3>>{{0, 64, 64},
                                                            {1, 8, 8},
                                                            {65, 136, 520},
                                                            {128, 256, 64},
                                                            {0, 8, 8},
                                                            {0, 8, 8},
                                                            {300, 72, 4104},
                                                            {129, 0, 64},
                                                            {1000, 1032, 1000},
                                                            {7, 8, 8}})
    groups.push_back(record(m, n, k));
  for (auto [rows, cols] : std::vector<std::pair<uint32_t, uint32_t>>{
           {128, 128}, {256, 128}, {128, 256}, {64, 64}}) {
    std::vector<uint32_t> table = buildGeneralTable(groups, {}, rows, cols);
    ASSERT_EQ(table[1], 0u);
    uint32_t units = table[0];
    std::map<std::pair<uint32_t, uint32_t>, int> seen; // (group, local unit)
    for (uint32_t u = 0; u < units; ++u) {
      uint32_t g = findGroup(table, uint32_t(groups.size()), u);
      uint32_t local = u - entry(table, g)[0];
      ASSERT_LT(uint64_t(local), unitsOf(groups[g], rows, cols))
          << "unit " << u << " of group " << g;
      ++seen[{g, local}];
    }
    uint64_t expected = 0;
    for (const GroupProblem &p : groups)
      expected += unitsOf(p, rows, cols);
    EXPECT_EQ(seen.size(), expected);
    EXPECT_EQ(units, expected);
  }
}

TEST(GeneralGroups, BadRecordGivesNoUnitsAndItsGroup) {
  std::vector<GroupProblem> groups = {record(128, 256, 64), record(64, 64, 0),
                                      record(-3, 8, 8)};
  std::vector<uint32_t> table = buildGeneralTable(groups, {}, 128, 128);
  EXPECT_EQ(table[0], 0u);
  EXPECT_EQ(table[1], 2u); // 1 + group 1
  EXPECT_EQ(table[2], uint32_t(GroupError::EmptyK));
  EXPECT_EQ(describeTableError(table[1], table[2], 3),
            "group 1 (of 3): " + std::string(describe(GroupError::EmptyK)));
  EXPECT_EQ(describeTableError(0, 0, 3), "");
  std::vector<std::string> errors = checkGroups(groups, {});
  ASSERT_THAT(errors, SizeIs(2));
  EXPECT_THAT(errors[0], HasSubstr("group 1 (m 64, n 64, k 0): K is 0"));
  EXPECT_THAT(errors[1], HasSubstr("group 2 (m -3, n 8, k 8): M, N or K is "
                                   "negative"));
  GroupProblem p = record(10, 16, 10);
  p.ldc = 20;
  EXPECT_THAT(checkGroups({p}, {}),
              ElementsAre(HasSubstr("ldc 20 x 2 bytes = 40 is not a multiple "
                                    "of 16; pad the lines to a multiple of 8 "
                                    "elements")));
  EXPECT_THAT(
      checkGroups({record(10, 10, 10)}, {}),
      ElementsAre(AllOf(
          HasSubstr("group 0 (m 10, n 10, k 10): C's lines are not a "
                    "multiple of 16 bytes"),
          HasSubstr("lines of 10 x 2 bytes would have the 6 elements after "
                    "each overwritten; give C lines of a multiple of 8 "
                    "elements (N padded"))));
  GroupLayouts columns;
  columns.cColumns = true;
  GroupProblem tall = record(10, 16, 10);
  tall.ldc = 16;
  EXPECT_THAT(checkGroups({tall}, columns),
              ElementsAre(HasSubstr("(M padded")));
  p = record(10, 16, 10);
  p.a += 2;
  EXPECT_THAT(checkGroups({p}, {}),
              ElementsAre(HasSubstr("a at 0x10002 is not 16-byte aligned")));
  EXPECT_THAT(checkGroups({}, {}),
              ElementsAre(HasSubstr("a group count of 0")));
}

TEST(GeneralGroups, TensorMapsOfTheGroupsWithTiles) {
  // The maps the prep kernel writes (and the simulator builds): a valid
  // group with tiles gets its A, B, C fields; an empty group none.
  std::vector<GroupProblem> groups = {record(104, 72, 40), record(0, 8, 8),
                                      record(8, 5, 7)};
  GroupLayouts l;
  l.cColumns = true; // C stored as N lines of M
  groups[0].ldc = 112;
  groups[2].ldc = 8;
  std::vector<std::optional<std::array<TensorMapFields, 3>>> maps;
  std::vector<uint32_t> table = buildGeneralTable(groups, l, 64, 64, &maps);
  EXPECT_EQ(table, buildGeneralTable(groups, l, 64, 64));
  ASSERT_THAT(maps, SizeIs(3));
  ASSERT_TRUE(maps[0] && maps[2]);
  EXPECT_FALSE(maps[1]);
  const std::array<TensorMapFields, 3> &first = *maps[0];
  EXPECT_EQ(first[0].address, 0x10000u);
  EXPECT_EQ(first[0].dims[0], 40u); // K-major A: M lines of K
  EXPECT_EQ(first[0].dims[1], 104u);
  EXPECT_EQ(first[0].strideBytes, 40u * 2);
  EXPECT_EQ(first[1].address, 0x20000u);
  EXPECT_EQ(first[1].dims[0], 40u); // K-major B: N lines of K
  EXPECT_EQ(first[1].dims[1], 72u);
  EXPECT_EQ(first[2].address, 0x30000u);
  EXPECT_EQ(first[2].dims[0], 104u); // column-major C: N lines of M
  EXPECT_EQ(first[2].dims[1], 72u);
  EXPECT_EQ(first[2].strideBytes, 112u * 2);
  EXPECT_EQ((*maps[2])[2].dims[0], 8u);
  EXPECT_EQ((*maps[2])[2].dims[1], 5u);
  EXPECT_EQ((*maps[2])[2].strideBytes, 16u);
  // No maps where a record is invalid: that group's; the others' are
  // written (the kernel finds U = 0 and reads none).
  groups[2].k = 0;
  buildGeneralTable(groups, l, 64, 64, &maps);
  EXPECT_TRUE(maps[0]);
  EXPECT_FALSE(maps[2]);
  EXPECT_TRUE(writesMaps(GroupError::None, 1));
  EXPECT_FALSE(writesMaps(GroupError::None, 0));
  EXPECT_FALSE(writesMaps(GroupError::EmptyK, 4));
}

TEST(GeneralGroups, TryParseGroupProblems) {
  std::string error;
  std::optional<std::vector<GroupSize>> sizes =
      tryParseGroupProblems("random:3:5", error);
  ASSERT_TRUE(sizes);
  EXPECT_EQ(sizes->size(), 3u);
  EXPECT_EQ(sizes->front().n, parseGroupProblems("random:3:5").front().n);
  EXPECT_FALSE(tryParseGroupProblems("random:0:1", error));
  EXPECT_THAT(error, HasSubstr("G must be 1..65536"));
}

TEST(GeneralGroups, TooManyUnits) {
  // 2^31 units of 1 x 1 rows: past the kernel's 32-bit unit numbers.
  std::vector<GroupProblem> groups = {record(65536, 32768, 8), record(1, 1, 8)};
  std::vector<uint32_t> table = buildGeneralTable(groups, {}, 1, 1);
  EXPECT_EQ(table[0], 0u);
  EXPECT_EQ(table[1], 1u);
  EXPECT_EQ(table[2], uint32_t(GroupError::TooManyUnits));
}

TEST(GeneralGroups, ParseGroupProblems) {
  std::string path = testing::TempDir() + "general-groups.txt";
  {
    std::ofstream out(path);
    out << "# M N K\n128 256 64\n\n0 8 8   # an idle expert\n 77 72 520\n";
  }
  std::vector<GroupSize> sizes = parseGroupProblems(path);
  ASSERT_THAT(sizes, SizeIs(3));
  EXPECT_EQ(sizes[2].m, 77);
  EXPECT_EQ(sizes[2].n, 72);
  EXPECT_EQ(sizes[2].k, 520);
  auto message = [](const std::string &spec) {
    try {
      parseGroupProblems(spec);
    } catch (const Error &e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  {
    std::ofstream out(path);
    out << "128 256\n";
  }
  EXPECT_THAT(message(path), HasSubstr(":1: expected \"M N K\", got 2 fields"));
  {
    std::ofstream out(path);
    out << "1 2 3\n4 x 6\n";
  }
  EXPECT_THAT(message(path), HasSubstr(":2 N: 'x' is not an integer"));
  {
    std::ofstream out(path);
    out << "# nothing\n";
  }
  EXPECT_THAT(message(path), HasSubstr("no group (a group count of 0)"));
  std::remove(path.c_str());
  EXPECT_THAT(message("/nonexistent/groups"), HasSubstr("cannot read"));
  EXPECT_THAT(message("random:0:1"), HasSubstr("G must be 1..65536"));
  EXPECT_THAT(message("random:4"), HasSubstr("expected random:G:SEED"));
  std::vector<GroupSize> random = parseGroupProblems("random:64:7");
  ASSERT_THAT(random, SizeIs(64));
  EXPECT_EQ(parseGroupProblems("random:64:7")[5].n, random[5].n);
  bool someEmpty = false, differentN = false, differentK = false;
  // Valid records for every layout of C (lines of N or of M elements).
  GroupLayouts rows, columns;
  columns.cColumns = true;
  GroupPacking packed = packGroups(random, rows, false);
  EXPECT_THAT(
      checkGroups(groupRecords(random, packed, rows, 1 << 20, 2 << 20, 3 << 20),
                  rows),
      IsEmpty());
  packed = packGroups(random, columns, false);
  EXPECT_THAT(checkGroups(groupRecords(random, packed, columns, 1 << 20,
                                       2 << 20, 3 << 20),
                          columns),
              IsEmpty());
  for (const GroupSize &s : random) {
    EXPECT_GE(s.m, 0);
    EXPECT_LE(s.m, 1024);
    EXPECT_EQ(s.m % 8, 0);
    EXPECT_EQ(s.n % 8, 0);
    EXPECT_EQ(s.k % 8, 0);
    someEmpty |= s.m == 0;
    differentN |= s.n != random[0].n;
    differentK |= s.k != random[0].k;
  }
  EXPECT_TRUE(someEmpty && differentN && differentK);
}

TEST(GeneralGroups, PackingGivesValidRecords) {
  std::vector<GroupSize> sizes = {
      {104, 72, 40}, {0, 8, 8}, {8, 16, 7}, {64, 136, 520}};
  for (bool mn : {false, true}) {
    GroupLayouts l;
    l.aColumns = l.bRows = l.cColumns = mn;
    GroupPacking packing = packGroups(sizes, l, /*padInputs=*/true);
    std::vector<GroupProblem> records =
        groupRecords(sizes, packing, l, 0x100000, 0x200000, 0x300000);
    // Group 2 (K = 7) has lines of A and B padded to 8; group 3's A and B
    // lines are 16 bytes longer than packed (odd group).
    EXPECT_THAT(checkGroups(records, l), IsEmpty()) << "mn " << mn;
    if (!mn) {
      EXPECT_EQ(records[2].lda, 8);
      EXPECT_EQ(records[3].lda, 528);
      EXPECT_EQ(records[0].lda, 40);
      EXPECT_EQ(packing.offsets[1][0], 104u * 40);
    }
    for (const GroupProblem &p : records)
      EXPECT_EQ(p.a % 16 + p.b % 16 + p.c % 16, 0u);
  }
}

TEST(GeneralGroups, CublasIsToldTheGroupsAlignment) {
  // The per-group cuBLASLt references and baselines run at the groups'
  // addresses (16-byte aligned matrices, 4-byte aligned f32 references):
  // the largest power of two up to 256 that divides them all.
  EXPECT_EQ(commonAlignment({0x100000, 0x200000, 0x300000}), 256u);
  EXPECT_EQ(commonAlignment({0x100010, 0x200000}), 16u);
  EXPECT_EQ(commonAlignment({0x100000, 0x200000, 0x300000 + 77 * 4}), 4u);
  EXPECT_EQ(commonAlignment({0}), 256u);
}

/// A general grouped kernel's manifest: the A, B, C templates, M, N, K,
/// the group count and the general group table.
KernelManifest generalManifest() {
  KernelManifest m = manifest();
  m.params.push_back(Param::problemSize(ProblemDim::Groups));
  m.params.push_back(Param::groupProblemTable());
  return m;
}

Problem generalProblem(const std::vector<GroupSize> &sizes) {
  Problem p;
  p.groupSizes = sizes;
  p.groups = sizes.size();
  return p;
}

TEST(GeneralPlan, Manifest) {
  EXPECT_THAT(generalManifest().validate(), IsEmpty());
  EXPECT_TRUE(generalManifest().hasGeneralGroups());
  EXPECT_TRUE(generalManifest().hasGroups());
  EXPECT_FALSE(manifest().hasGeneralGroups());
  KernelManifest withPointer = generalManifest();
  withPointer.params.push_back(Param::pointer(Tensor::C));
  withPointer.params.push_back(Param::leadingDim(Tensor::C));
  EXPECT_THAT(withPointer.validate(),
              Contains(HasSubstr("a general grouped kernel takes the "
                                 "tma_descriptors of a, b and c (the "
                                 "templates of its groups' tensor maps) "
                                 "and no pointers")));
  KernelManifest two = generalManifest();
  two.params.push_back(Param::groupTable());
  EXPECT_THAT(two.validate(), Contains(HasSubstr("a second group table")));
  KernelManifest m = generalManifest();
  ParseResult parsed = parseManifestText(m.toJsonString());
  ASSERT_TRUE(parsed.manifest) << parsed.errors.front();
  EXPECT_EQ(*parsed.manifest, m);
  EXPECT_THAT(m.toJsonString(), HasSubstr("\"group_problem_table\""));
}

TEST(GeneralPlan, TemplatesGridAndTable) {
  std::vector<GroupSize> sizes = {{128, 256, 64}, {0, 8, 8}, {129, 8, 72}};
  LaunchPlan plan =
      planLaunch(generalManifest(), generalProblem(sizes), options());
  EXPECT_TRUE(plan.general);
  ASSERT_THAT(plan.tma, SizeIs(3));
  // Templates: the box as the extent.
  EXPECT_EQ(plan.tma[0].rank, 2u);
  EXPECT_EQ(plan.tma[0].globalDim[0], 64u);
  EXPECT_EQ(plan.tma[0].globalDim[1], 128u);
  EXPECT_EQ(plan.tma[0].globalStrides[0], 128u);
  EXPECT_EQ(plan.tma[2].globalDim[1], 32u);
  EXPECT_EQ(plan.groupUnitRows, 128u);
  EXPECT_EQ(plan.groupUnitCols, 256u);
  EXPECT_EQ(plan.groupTableBytes, tableBytes(3));
  // 1 + 0 + 2 units: a grid of 3 CTAs.
  EXPECT_EQ(plan.clusterUnits, 3u);
  EXPECT_EQ(plan.grid[0], 3u);
  EXPECT_EQ(plan.args[3].value, 0u); // M
  EXPECT_EQ(plan.args[6].value, 3u); // groups
  EXPECT_EQ(plan.args[7].kind, ParamKind::GroupProblemTable);
  EXPECT_DOUBLE_EQ(plan.problem.flops(), 2.0 * (128 * 256 * 64 + 129 * 8 * 72));
  EXPECT_EQ(plan.matrix(Tensor::A).bytes(), plan.groupPacking.elements[0] * 2);
  std::string text = describePlan(plan);
  EXPECT_THAT(text, HasSubstr("general groups: 3, tile units of 128x256"));
  EXPECT_THAT(text, HasSubstr("group 2: m 129 n 8 k 72, lda 72 ldb 72 ldc 8, "
                              "2 units"));
  EXPECT_THAT(text, HasSubstr("group_problem_table: "));
  EXPECT_THAT(text, HasSubstr("tma_descriptor a (template)"));
  // Without the sizes: every co-resident CTA.
  Problem unknown;
  unknown.groups = 3;
  EXPECT_EQ(planLaunch(generalManifest(), unknown, options(100)).grid[0], 100u);
}

TEST(GeneralPlan, Errors) {
  auto message = planError;
  Problem none;
  EXPECT_THAT(message(generalManifest(), none),
              HasSubstr("general grouped problem: a group count of 0"));
  Problem sized = generalProblem({{1, 8, 8}});
  sized.m = 64;
  EXPECT_THAT(message(generalManifest(), sized),
              HasSubstr("takes each group's M, N, K from its records"));
  EXPECT_THAT(message(manifest(), generalProblem({{1, 8, 8}})),
              HasSubstr("is not a general grouped kernel"));
}

} // namespace
