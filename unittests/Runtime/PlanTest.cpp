//===- PlanTest.cpp - Launch planning -------------------------------------===//

#include "gemm/Runtime/Plan.h"
#include "gemm/Runtime/Error.h"

#include "PlanFixtures.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace gemm::bundle;
using namespace gemm::runtime;
using namespace gemm::runtime::plan_fixtures;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

/// The message of the Error `f` throws, checking its kind.
template <typename F> std::string errorOf(F &&f, ErrorKind kind) {
  try {
    f();
  } catch (const Error &error) {
    EXPECT_EQ(error.kind(), kind);
    return error.what();
  }
  ADD_FAILURE() << "no error thrown";
  return {};
}

TEST(Plan, PackedLayoutAndDescriptors) {
  LaunchPlan plan =
      planLaunch(manifest(), problem(4096, 2048, 1024), options());
  const MatrixPlan &a = plan.matrix(Tensor::A);
  EXPECT_EQ(a.outer, 4096u);
  EXPECT_EQ(a.inner, 1024u);
  EXPECT_EQ(a.ld, 1024u);
  EXPECT_EQ(a.bytes(), 4096u * 1024 * 2);
  EXPECT_FALSE(plan.padded());
  ASSERT_EQ(plan.tma.size(), 3u);
  const TmaPlan &c = plan.tma[2];
  EXPECT_EQ(c.tensor, Tensor::C);
  EXPECT_EQ(c.rank, 2u);
  EXPECT_EQ(c.globalDim[0], 2048u);
  EXPECT_EQ(c.globalDim[1], 4096u);
  EXPECT_EQ(c.globalStrides[0], 4096u);
  EXPECT_EQ(c.box[0], 64u);
  EXPECT_EQ(c.box[1], 32u);
  EXPECT_EQ(c.swizzle, Swizzle::B128);
  ASSERT_EQ(plan.args.size(), 6u);
  EXPECT_EQ(plan.args[0].tmaIndex, 0u);
  EXPECT_EQ(plan.args[4].value, 2048u);
  EXPECT_EQ(plan.args[5].value, 1024u);
}

TEST(Plan, Layouts) {
  // An M-major A is K rows of M, an N-major B K rows of N: the memory's rows
  // (outer) are the matrix's columns, and the descriptors follow memory.
  KernelManifest m = manifest();
  m.layouts.a = Layout::Col;
  m.layouts.b = Layout::Row;
  LaunchPlan plan = planLaunch(m, problem(4096, 2048, 1000), options());
  const MatrixPlan &a = plan.matrix(Tensor::A);
  EXPECT_TRUE(a.transposed());
  EXPECT_EQ(a.outer, 1000u);
  EXPECT_EQ(a.inner, 4096u);
  EXPECT_EQ(a.ld, 4096u);
  const MatrixPlan &b = plan.matrix(Tensor::B);
  EXPECT_TRUE(b.transposed());
  EXPECT_EQ(b.outer, 1000u);
  EXPECT_EQ(b.inner, 2048u);
  EXPECT_FALSE(plan.matrix(Tensor::C).transposed());
  // K = 1000 runs along the outer dimension: nothing is staged, although
  // K-major rows of 1000 bf16 (2000 bytes) would be.
  EXPECT_FALSE(plan.anyStaged());
  EXPECT_EQ(plan.tma[0].globalDim[0], 4096u);
  EXPECT_EQ(plan.tma[0].globalDim[1], 1000u);
  EXPECT_EQ(plan.tma[0].globalStrides[0], 4096u * 2);
  EXPECT_EQ(plan.tma[1].globalDim[0], 2048u);
  EXPECT_EQ(plan.tma[1].globalDim[1], 1000u);
  std::string text = describePlan(plan);
  EXPECT_THAT(text, HasSubstr("tensor a: bf16 1000 x 4096 (col: K rows of M), "
                              "ld 4096 (8192 bytes)\n"));
  EXPECT_THAT(text, HasSubstr("tensor b: bf16 1000 x 2048 (row: K rows of N), "
                              "ld 2048 (4096 bytes)\n"));
  // A column-major C is N rows of M; its descriptor's inner dimension is M.
  m.layouts.c = Layout::Col;
  plan = planLaunch(m, problem(4096, 2048, 1000), options());
  EXPECT_TRUE(plan.matrix(Tensor::C).transposed());
  EXPECT_EQ(plan.matrix(Tensor::C).outer, 2048u);
  EXPECT_EQ(plan.matrix(Tensor::C).inner, 4096u);
  EXPECT_EQ(plan.tma[2].globalDim[0], 4096u);
  EXPECT_EQ(plan.tma[2].globalDim[1], 2048u);
  EXPECT_THAT(describePlan(plan),
              HasSubstr("tensor c: bf16 2048 x 4096 (col: N rows of M)"));
  m.layouts.c = Layout::Row;
  // An odd M of an M-major A is its rows' length: staged.
  plan = planLaunch(m, problem(4095, 2048, 1024), options());
  EXPECT_TRUE(plan.isStaged(Tensor::A));
  EXPECT_FALSE(plan.isStaged(Tensor::B));
  EXPECT_EQ(plan.kernelMatrix(Tensor::A).ld, 4096u);
}

TEST(Plan, SecondDescriptorOfATensorViewsTheSameMatrix) {
  // The last parameter: A again, in 16-row boxes (tiles that reach past M).
  KernelManifest m = manifest();
  TmaDescriptorParam partial = m.params[0].tma;
  partial.box[1] = 16;
  m.params.push_back(Param::tmaDescriptor(partial));
  LaunchPlan plan = planLaunch(m, problem(16, 2048, 1024), options());
  ASSERT_EQ(plan.tma.size(), 4u);
  const TmaPlan &whole = plan.tma[0], &rows = plan.tma[3];
  EXPECT_EQ(rows.tensor, Tensor::A);
  EXPECT_EQ(rows.paramIndex, 6u);
  EXPECT_EQ(rows.globalDim, whole.globalDim);
  EXPECT_EQ(rows.globalStrides, whole.globalStrides);
  EXPECT_EQ(rows.box[0], whole.box[0]);
  EXPECT_EQ(rows.box[1], 16u);
  ASSERT_EQ(plan.args.size(), 7u);
  EXPECT_EQ(plan.args[6].tmaIndex, 3u);
}

TEST(Plan, PersistentGrid) {
  // 32 x 8 = 256 tiles, capped at 132 SMs.
  LaunchPlan plan = planLaunch(manifest(), problem(4096, 2048, 64), options());
  EXPECT_EQ(plan.tiles, 256u);
  EXPECT_EQ(plan.grid[0], 132u);
  // Fewer tiles than SMs: one CTA per tile.
  plan = planLaunch(manifest(), problem(200, 320, 64), options());
  EXPECT_EQ(plan.tiles, 4u);
  EXPECT_EQ(plan.grid[0], 4u);
}

TEST(Plan, GridsAreWholeClusters) {
  EXPECT_EQ(persistentGridSize(1000, 132, 2), 132u);
  EXPECT_EQ(persistentGridSize(1000, 133, 2), 132u);
  EXPECT_EQ(persistentGridSize(5, 132, 4), 8u);
  EXPECT_EQ(persistentGridSize(5, 3, 4), 0u);
  KernelManifest m = manifest(GridPolicy::Tiles);
  m.cluster = {2, 1, 1};
  LaunchPlan plan = planLaunch(m, problem(300, 256, 64), options());
  EXPECT_EQ(plan.tiles, 3u);
  EXPECT_EQ(plan.grid[0], 4u);
  m.grid = GridPolicy::Persistent;
  EXPECT_THAT(errorOf([&] { planLaunch(m, problem(300, 256, 64), options(1)); },
                      ErrorKind::Usage),
              HasSubstr("not one cluster of 2 CTAs fits"));
}

TEST(Plan, ClustersCoverBlocksOfTiles) {
  // 3 x 3 tiles in clusters of 2 along M: two blocks of 2x1 tiles per tile
  // column (the second sticks out of C), 6 clusters of 2 CTAs, not
  // roundUp(9 tiles, 2) = 10 CTAs, which would leave a block unprocessed.
  KernelManifest m = manifest(GridPolicy::Tiles);
  m.cluster = {2, 1, 1};
  LaunchPlan plan = planLaunch(m, problem(300, 700, 64), options());
  EXPECT_EQ(plan.tiles, 9u);
  EXPECT_EQ(plan.clusterUnits, 6u);
  EXPECT_EQ(plan.grid[0], 12u);
  // A 2x2 cluster over the same tiles: 2 x 2 blocks of 4 CTAs.
  m.cluster = {4, 1, 1};
  m.clusterTiles = std::array<uint32_t, 2>{2, 2};
  plan = planLaunch(m, problem(300, 700, 64), options());
  EXPECT_EQ(plan.clusterUnits, 4u);
  EXPECT_EQ(plan.grid[0], 16u);
  EXPECT_THAT(describePlan(plan),
              HasSubstr("grid: [16, 1, 1] (tiles: 4 clusters of 4 CTAs, one "
                        "per 2x2 block of tiles)"));
  // Persistent: no more CTAs than the blocks' tiles, in whole clusters.
  m.grid = GridPolicy::Persistent;
  plan = planLaunch(m, problem(300, 700, 64), options());
  EXPECT_EQ(plan.grid[0], 16u);
  plan = planLaunch(m, problem(300, 700, 64), options(10));
  EXPECT_EQ(plan.grid[0], 8u);
}

TEST(Plan, WorkspacesCoverEveryLaunchedTile) {
  // 3 x 3 tiles in 2x1 clusters: 6 blocks of 2 tiles, 12 tiles' shares.
  KernelManifest m = manifest();
  m.cluster = {2, 1, 1};
  m.params.push_back(Param::workspaceBuffer({1024, 0, false}));
  m.params.push_back(Param::workspaceBuffer({16, 0, true}));
  LaunchPlan plan = planLaunch(m, problem(300, 700, 64), options());
  ASSERT_EQ(plan.workspaces.size(), 2u);
  EXPECT_EQ(plan.workspaces[0].paramIndex, 6u);
  EXPECT_EQ(plan.workspaces[0].bytes, 12u * 1024);
  EXPECT_FALSE(plan.workspaces[0].zeroInit);
  EXPECT_EQ(plan.workspaces[1].bytes, 12u * 16);
  EXPECT_TRUE(plan.workspaces[1].zeroInit);
  EXPECT_EQ(plan.args[7].kind, ParamKind::Workspace);
  EXPECT_EQ(plan.args[7].workspaceIndex, 1u);
  EXPECT_THAT(describePlan(plan),
              HasSubstr("params[6]: workspace: 12288 bytes\n"
                        "params[7]: workspace: 192 bytes, zeroed once\n"));
}

TEST(Plan, PerCtaWorkspacesCoverTheGrid) {
  // Stream-K's partial tiles: two per CTA of the (capped) grid, besides the
  // per-tile counters.
  KernelManifest m = manifest();
  m.workUnitsPerTile = 4;
  m.params.push_back(Param::workspaceBuffer({0, 2048, false}));
  m.params.push_back(Param::workspaceBuffer({16, 0, true}));
  LaunchPlan plan = planLaunch(m, problem(200, 700, 64), options());
  EXPECT_EQ(plan.grid[0], 24u);
  EXPECT_EQ(plan.workspaces[0].bytes, 24u * 2048);
  EXPECT_EQ(plan.workspaces[1].bytes, 6u * 16);
  plan = planLaunch(m, problem(4096, 4096, 64), options());
  EXPECT_EQ(plan.grid[0], 132u);
  EXPECT_EQ(plan.workspaces[0].bytes, 132u * 2048);
}

TEST(Plan, GridsCoverEveryWorkUnit) {
  // 2 x 3 tiles, each 3 split-K work units: 18 CTAs' work, all co-resident.
  KernelManifest m = manifest();
  m.workUnitsPerTile = 3;
  LaunchPlan plan = planLaunch(m, problem(200, 700, 64), options());
  EXPECT_EQ(plan.tiles, 6u);
  EXPECT_EQ(plan.grid[0], 18u);
  EXPECT_THAT(describePlan(plan),
              HasSubstr("(persistent: min(18 CTAs = 6 blocks of 1x1 tiles x 3 "
                        "work units per tile, 132 co-resident CTAs)"));
  // Capped by the co-resident CTAs.
  plan = planLaunch(m, problem(4096, 4096, 64), options());
  EXPECT_EQ(plan.grid[0], 132u);
}

TEST(Plan, RejectNamesTensorValueAndRule) {
  std::string message = errorOf(
      [] {
        planLaunch(manifest(), problem(64, 64, 4095),
                   options(132, UnalignedPolicy::Reject));
      },
      ErrorKind::Usage);
  EXPECT_THAT(message,
              HasSubstr("tensor a: leading dimension 4095 x bf16 = 8190 bytes "
                        "is not a multiple of 16 bytes"));
  EXPECT_THAT(message, HasSubstr("tensor b: leading dimension 4095"));
  EXPECT_THAT(message, HasSubstr("--unaligned stage"));
  EXPECT_THAT(message, HasSubstr("--unaligned pad"));
  EXPECT_THAT(message, ::testing::Not(HasSubstr("tensor c")));
  // Aligned problems are planned under every policy, with nothing staged.
  LaunchPlan plan = planLaunch(manifest(), problem(64, 64, 4096),
                               options(132, UnalignedPolicy::Reject));
  EXPECT_FALSE(plan.anyStaged());
  EXPECT_FALSE(plan.padded());
}

TEST(Plan, UnalignedPolicySpellings) {
  EXPECT_EQ(toString(UnalignedPolicy::Stage), "stage");
  EXPECT_EQ(parseUnalignedPolicy("pad"), UnalignedPolicy::Pad);
  EXPECT_EQ(parseUnalignedPolicy("reject"), UnalignedPolicy::Reject);
  EXPECT_EQ(parseUnalignedPolicy("Stage"), std::nullopt);
  EXPECT_EQ(PlanOptions().unaligned, UnalignedPolicy::Stage);
}

TEST(Plan, StageOnlyWhatNeedsIt) {
  // The default: the caller's matrices stay packed; A (k = 4100: 8200-byte
  // rows), B (the same) and C (n = 4097: 8194-byte rows) are staged through
  // scratch copies whose rows are rounded up to 128 bytes (8320).
  LaunchPlan plan =
      planLaunch(manifest(), problem(4095, 4097, 4100), options());
  EXPECT_EQ(plan.unaligned, UnalignedPolicy::Stage);
  EXPECT_FALSE(plan.padded());
  EXPECT_TRUE(plan.anyStaged());
  EXPECT_THAT(plan.stagedTensors(), ElementsAre("a", "b", "c"));
  const MatrixPlan &a = plan.matrix(Tensor::A);
  EXPECT_EQ(a.ld, 4100u);
  EXPECT_EQ(a.bytes(), 4095u * 4100 * 2);
  EXPECT_FALSE(a.padded);
  const MatrixPlan &ka = plan.kernelMatrix(Tensor::A);
  EXPECT_EQ(ka.ld, 4160u);
  EXPECT_EQ(ka.inner, 4100u);
  EXPECT_EQ(ka.outer, 4095u);
  EXPECT_EQ(ka.bytes(), 4095u * 8320);
  EXPECT_TRUE(ka.padded);
  EXPECT_EQ(plan.kernelMatrix(Tensor::B).ld, 4160u);
  EXPECT_EQ(plan.kernelMatrix(Tensor::B).outer, 4097u);
  EXPECT_EQ(plan.matrix(Tensor::C).ld, 4097u);
  EXPECT_EQ(plan.kernelMatrix(Tensor::C).ld, 4160u);
  EXPECT_EQ(plan.stagingBytes(), (4095u + 4097 + 4095) * 8320ull);
  // The descriptors describe the scratch copies with the logical sizes as
  // dims, so TMA never reads their padding.
  EXPECT_EQ(plan.tma[0].globalDim[0], 4100u);
  EXPECT_EQ(plan.tma[0].globalDim[1], 4095u);
  EXPECT_EQ(plan.tma[0].globalStrides[0], 8320u);
  EXPECT_EQ(plan.tma[1].globalDim[1], 4097u);
  EXPECT_EQ(plan.tma[2].globalDim[0], 4097u);
  EXPECT_EQ(plan.tma[2].globalStrides[0], 8320u);

  // Only B and A have odd rows here; C (n = 4096) is the caller's buffer.
  plan = planLaunch(manifest(), problem(100, 4096, 4095), options());
  EXPECT_THAT(plan.stagedTensors(), ElementsAre("a", "b"));
  EXPECT_FALSE(plan.isStaged(Tensor::C));
  EXPECT_EQ(plan.kernelMatrix(Tensor::C).ld, 4096u);
  EXPECT_EQ(plan.tma[2].globalStrides[0], 8192u);
  EXPECT_EQ(plan.kernelMatrix(Tensor::A).ld, 4096u);
  EXPECT_EQ(plan.stagingBytes(), (100u + 4096) * 8192ull);

  // Only C: n odd, k aligned.
  plan = planLaunch(manifest(), problem(8191, 8191, 8192), options());
  EXPECT_THAT(plan.stagedTensors(), ElementsAre("c"));
  EXPECT_EQ(plan.kernelMatrix(Tensor::C).ld, 8192u);

  // Aligned problems stage nothing.
  plan = planLaunch(manifest(), problem(4096, 4096, 4096), options());
  EXPECT_FALSE(plan.anyStaged());
  EXPECT_EQ(plan.stagingBytes(), 0u);
  EXPECT_EQ(plan.kernelMatrix(Tensor::A).ld, 4096u);
}

TEST(Plan, RealignRowsThatStraddleL2LinesWhereReused) {
  // k = 7784: 15568-byte rows, 16-byte multiples (legal for TMA) but not
  // 128-byte ones. A is reused n times, B m times: both staged into 15616-byte
  // rows at 7784 cubed; at m = 512 only A (n = 7784) is; C never.
  LaunchPlan plan =
      planLaunch(manifest(), problem(7784, 7784, 7784), options());
  EXPECT_EQ(plan.realign, RealignPolicy::Auto);
  EXPECT_THAT(plan.stagedTensors(), ElementsAre("a", "b"));
  EXPECT_EQ(plan.kernelMatrix(Tensor::A).ld, 7808u);
  EXPECT_EQ(plan.kernelMatrix(Tensor::B).ld, 7808u);
  EXPECT_EQ(plan.tma[0].globalStrides[0], 15616u);
  plan = planLaunch(manifest(), problem(512, 7784, 7784), options());
  EXPECT_THAT(plan.stagedTensors(), ElementsAre("a"));
  plan = planLaunch(manifest(), problem(1000, 1000, 7784), options());
  EXPECT_FALSE(plan.anyStaged());
  // Too small a problem for a copy's launch to pay: 64 x 7784 x 7784 is
  // under 2^32 multiply-adds.
  plan = planLaunch(manifest(), problem(64, 7784, 7784), options());
  EXPECT_FALSE(plan.anyStaged());
  // 128-byte rows need nothing; the policy can force or forbid the copy.
  plan = planLaunch(manifest(), problem(7808, 7808, 7808), options());
  EXPECT_FALSE(plan.anyStaged());
  PlanOptions never = options();
  never.realign = RealignPolicy::Never;
  EXPECT_FALSE(
      planLaunch(manifest(), problem(7784, 7784, 7784), never).anyStaged());
  PlanOptions always = options();
  always.realign = RealignPolicy::Always;
  EXPECT_THAT(
      planLaunch(manifest(), problem(1000, 1000, 7784), always).stagedTensors(),
      ElementsAre("a", "b"));
  // Only with staging, and never for the caller's own leading dimensions.
  PlanOptions reject = options();
  reject.unaligned = UnalignedPolicy::Reject;
  EXPECT_FALSE(
      planLaunch(manifest(), problem(7784, 7784, 7784), reject).anyStaged());
  PlanOptions given = options();
  given.leadingDims = {7784, 7784, 7784};
  EXPECT_FALSE(
      planLaunch(manifest(), problem(7784, 7784, 7784), given).anyStaged());
  EXPECT_TRUE(realignPays(Tensor::A, problem(1024, 1024, 4096), 16));
  EXPECT_FALSE(realignPays(Tensor::A, problem(1024, 1023, 4200), 16));
  EXPECT_FALSE(realignPays(Tensor::A, problem(1024, 1024, 4095), 16));
  EXPECT_FALSE(realignPays(Tensor::C, problem(8192, 8192, 8), 16,
                           RealignPolicy::Always));
  EXPECT_EQ(parseRealignPolicy("never"), RealignPolicy::Never);
  EXPECT_EQ(parseRealignPolicy("sometimes"), std::nullopt);
}

TEST(Plan, DirectKernelsStageNothing) {
  // Rows of 23 and 28 elements: a TMA kernel stages A, B and C; the direct
  // kernel reads and writes them as they are, one CTA per tile.
  KernelManifest m = directManifest();
  ASSERT_TRUE(m.validate().empty());
  LaunchPlan tma = planLaunch(manifest(), problem(8688, 23, 28), options());
  EXPECT_THAT(tma.stagedTensors(), ElementsAre("a", "b", "c"));
  LaunchPlan plan = planLaunch(m, problem(8688, 23, 28), options());
  EXPECT_FALSE(plan.anyStaged());
  EXPECT_FALSE(plan.padded());
  EXPECT_TRUE(plan.tma.empty());
  EXPECT_EQ(plan.grid[0], 136u);
  ASSERT_EQ(plan.args.size(), 9u);
  EXPECT_EQ(plan.args[0].kind, ParamKind::Pointer);
  EXPECT_EQ(plan.args[2].tensor, Tensor::C);
  EXPECT_EQ(plan.args[6].kind, ParamKind::LeadingDim);
  EXPECT_EQ(plan.args[6].leadingDim, 28u);
  EXPECT_EQ(plan.args[7].leadingDim, 28u);
  EXPECT_EQ(plan.args[8].leadingDim, 23u);
  std::string text = describePlan(plan);
  EXPECT_THAT(text, HasSubstr("grid: [136, 1, 1] (tiles: 136 clusters of 1 "
                              "CTAs"));
  EXPECT_THAT(text, HasSubstr("params[0]: pointer a (u64 address of the "
                              "matrix)"));
  EXPECT_THAT(text, HasSubstr("params[8]: leading_dim c = 23 (u64)"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("staging")));
  // Rows that straddle L2 lines are realigned only for TMA: 7784 cubed.
  EXPECT_FALSE(planLaunch(m, problem(7784, 7784, 7784), options()).anyStaged());
  // The caller's own leading dimensions, any value from the row length up;
  // padding (--unaligned pad) has nothing to pad to.
  PlanOptions given = options();
  given.leadingDims = {29, 31, 23};
  plan = planLaunch(m, problem(100, 23, 28), given);
  EXPECT_EQ(plan.args[6].leadingDim, 29u);
  EXPECT_EQ(plan.args[7].leadingDim, 31u);
  EXPECT_FALSE(
      planLaunch(m, problem(100, 23, 28), options(132, UnalignedPolicy::Pad))
          .padded());
  EXPECT_FALSE(
      planLaunch(m, problem(100, 23, 28), options(132, UnalignedPolicy::Reject))
          .anyStaged());
  // A tile's elements are 32-bit offsets from its first one.
  given.leadingDims = {uint64_t(1) << 26, 28, 23};
  EXPECT_THAT(errorOf([&] { planLaunch(m, problem(100, 23, 28), given); },
                      ErrorKind::Usage),
              HasSubstr("tensor a: leading dimension 67108864 is too large for "
                        "kernel d, which addresses a tile of 64 x 64 elements "
                        "with 32-bit offsets: the tile spans 4227858495 "
                        "elements"));
  given.leadingDims = {(uint64_t(1) << 31) / 64, 28, 23};
  EXPECT_NO_THROW(planLaunch(m, problem(100, 23, 28), given));
}

TEST(Plan, StagedForTmaIsWhatThePlannerStages) {
  // The rule the dispatcher and the Python package ask is the planner's.
  for (uint64_t m : {1u, 64u, 1000u, 7784u})
    for (uint64_t n : {23u, 1024u, 7784u})
      for (uint64_t k : {28u, 4096u, 7784u, 7808u}) {
        LaunchPlan plan = planLaunch(manifest(), problem(m, n, k), options());
        EXPECT_EQ(plan.isStaged(Tensor::A),
                  stagedForTma(Tensor::A, problem(m, n, k), DType::BF16, k))
            << m << "x" << n << "x" << k;
        EXPECT_EQ(plan.isStaged(Tensor::B),
                  stagedForTma(Tensor::B, problem(m, n, k), DType::BF16, k));
        EXPECT_EQ(plan.isStaged(Tensor::C),
                  stagedForTma(Tensor::C, problem(m, n, k), DType::BF16, n));
      }
}

TEST(Plan, StageFp8AndF32) {
  // e4m3 rows need 16-element multiples, f32 rows 4-element multiples; the
  // scratch rows round up to 128 bytes: 128 e4m3 or 32 f32 elements.
  KernelManifest m = manifest();
  m.types = {DType::E4M3, DType::E4M3, DType::F32, DType::F32};
  m.params[0].tma.box = {128, 128};
  m.params[1].tma.box = {128, 256};
  m.params[2].tma.box = {32, 32};
  LaunchPlan plan = planLaunch(m, problem(8, 9, 17), options());
  EXPECT_THAT(plan.stagedTensors(), ElementsAre("a", "b", "c"));
  EXPECT_EQ(plan.matrix(Tensor::A).ld, 17u);
  EXPECT_EQ(plan.kernelMatrix(Tensor::A).ld, 128u);
  EXPECT_EQ(plan.matrix(Tensor::C).ld, 9u);
  EXPECT_EQ(plan.kernelMatrix(Tensor::C).ld, 32u);
  // n = 4 f32 = 16 bytes is aligned: C is not staged.
  plan = planLaunch(m, problem(8, 4, 16), options());
  EXPECT_THAT(plan.stagedTensors(), ElementsAre());
}

TEST(Plan, StageBatched) {
  KernelManifest m = manifest();
  m.params.push_back(Param::problemSize(ProblemDim::Batch));
  LaunchPlan plan = planLaunch(m, problem(256, 512, 100, 3), options());
  EXPECT_THAT(plan.stagedTensors(), ElementsAre("a", "b"));
  EXPECT_EQ(plan.matrix(Tensor::A).batchStride, 256u * 100);
  EXPECT_EQ(plan.kernelMatrix(Tensor::A).ld, 128u);
  EXPECT_EQ(plan.kernelMatrix(Tensor::A).batchStride, 256u * 128);
  EXPECT_EQ(plan.kernelMatrix(Tensor::A).bytes(), 3u * 256 * 128 * 2);
  const TmaPlan &a = plan.tma[0];
  EXPECT_EQ(a.globalDim[0], 100u);
  EXPECT_EQ(a.globalStrides[0], 256u);
  EXPECT_EQ(a.globalStrides[1], 256u * 256);
}

TEST(Plan, PadLeadingDims) {
  LaunchPlan plan = planLaunch(manifest(), problem(100, 4095, 4095),
                               options(132, UnalignedPolicy::Pad));
  EXPECT_TRUE(plan.padded());
  EXPECT_EQ(plan.matrix(Tensor::A).ld, 4096u);
  EXPECT_EQ(plan.matrix(Tensor::C).ld, 4096u);
  EXPECT_EQ(plan.matrix(Tensor::C).inner, 4095u);
  EXPECT_EQ(plan.tma[0].globalDim[0], 4095u);
  EXPECT_EQ(plan.tma[0].globalStrides[0], 8192u);
  // Padding is the caller's layout: nothing is staged.
  EXPECT_FALSE(plan.anyStaged());
  EXPECT_EQ(plan.kernelMatrix(Tensor::A).ld, 4096u);
  // fp8 rows pad to 16 elements, f32 rows to 4.
  KernelManifest m = manifest();
  m.types = {DType::E4M3, DType::E4M3, DType::F32, DType::F32};
  m.params[0].tma.box = {128, 128};
  m.params[1].tma.box = {128, 256};
  m.params[2].tma.box = {32, 32};
  plan = planLaunch(m, problem(8, 9, 17), options(132, UnalignedPolicy::Pad));
  EXPECT_EQ(plan.matrix(Tensor::A).ld, 32u);
  EXPECT_EQ(plan.matrix(Tensor::C).ld, 12u);
}

TEST(Plan, CallerLeadingDims) {
  // A view into wider matrices (the Python package passes its tensors'
  // strides): used as given, never staged, even with packed rows unaligned.
  PlanOptions given = options(132, UnalignedPolicy::Reject);
  given.leadingDims = {8192, 4096, 4096};
  LaunchPlan plan = planLaunch(manifest(), problem(100, 4095, 4095), given);
  EXPECT_EQ(plan.matrix(Tensor::A).ld, 8192u);
  EXPECT_EQ(plan.tma[0].globalStrides[0], 16384u);
  EXPECT_EQ(plan.matrix(Tensor::C).ld, 4096u);
  EXPECT_FALSE(plan.anyStaged());
  EXPECT_FALSE(plan.padded());
  EXPECT_EQ(plan.matrix(Tensor::A).bytes(), 100u * 8192 * 2);

  given.leadingDims = {4000, 4097, 4096};
  std::string message =
      errorOf([&] { planLaunch(manifest(), problem(100, 4095, 4095), given); },
              ErrorKind::Usage);
  EXPECT_THAT(message,
              HasSubstr("tensor a: leading dimension 4000 is smaller than "
                        "its rows of 4095 elements"));
  EXPECT_THAT(message,
              HasSubstr("tensor b: leading dimension 4097 x bf16 = 8194 "
                        "bytes is not a multiple of 16 bytes"));
}

TEST(Plan, ProblemChecks) {
  KernelManifest m = manifest();
  m.constraints.kMultiple = 64;
  EXPECT_EQ(errorOf([&] { planLaunch(m, problem(64, 64, 100), options()); },
                    ErrorKind::Usage),
            "--k 100: kernel k needs k to be a multiple of 64");
  EXPECT_EQ(errorOf([&] { planLaunch(m, problem(64, 64, 64, 2), options()); },
                    ErrorKind::Usage),
            "--batch 2: kernel k is not batched (its manifest has no "
            "problem_size parameter for dim batch)");
  EXPECT_THAT(
      errorOf([&] { planLaunch(m, problem(1ull << 31, 64, 64), options()); },
              ErrorKind::Usage),
      HasSubstr("--m 2147483648: exceeds 2147483647"));
}

TEST(Plan, BatchedKernelsUseRank3Descriptors) {
  KernelManifest m = manifest();
  m.params.push_back(Param::problemSize(ProblemDim::Batch));
  LaunchPlan plan = planLaunch(m, problem(256, 512, 128, 3), options());
  EXPECT_EQ(plan.tiles, 2u * 2 * 3);
  const TmaPlan &a = plan.tma[0];
  EXPECT_EQ(a.rank, 3u);
  EXPECT_EQ(a.globalDim[2], 3u);
  EXPECT_EQ(a.globalStrides[1], 256u * 128 * 2);
  EXPECT_EQ(a.box[2], 1u);
  EXPECT_EQ(plan.args[6].value, 3u);
}

/// The sample kernel, batched: batch size and broadcast mask after M, N, K.
KernelManifest batchedManifest() {
  KernelManifest m = manifest();
  m.params.push_back(Param::problemSize(ProblemDim::Batch));
  m.params.push_back(Param::problemSize(ProblemDim::BatchBroadcast));
  return m;
}

TEST(Plan, BatchStrides) {
  KernelManifest m = batchedManifest();
  // Broadcast A (stride 0): one entry in its descriptor, the mask's bit 0;
  // B with gaps between entries; C packed.
  PlanOptions o = options();
  o.batchStrides = {0, 256u * 128 + 64, std::nullopt};
  LaunchPlan plan = planLaunch(m, problem(128, 256, 128, 4), o);
  const MatrixPlan &a = plan.matrix(Tensor::A);
  EXPECT_EQ(a.batchStride, 0u);
  EXPECT_EQ(a.storedBatches(), 1u);
  EXPECT_EQ(a.bytes(), 128u * 128 * 2);
  EXPECT_EQ(plan.tma[0].globalDim[2], 1u);
  EXPECT_EQ(plan.tma[0].globalStrides[1], 128u * 128 * 2);
  EXPECT_EQ(plan.matrix(Tensor::B).batchStride, 256u * 128 + 64);
  EXPECT_EQ(plan.tma[1].globalDim[2], 4u);
  EXPECT_EQ(plan.tma[1].globalStrides[1], (256u * 128 + 64) * 2);
  EXPECT_EQ(plan.matrix(Tensor::C).batchStride, 128u * 256);
  EXPECT_EQ(plan.args[6].value, 4u);
  EXPECT_EQ(plan.args[7].value, 1u); // A broadcast
  EXPECT_THAT(describePlan(plan),
              HasSubstr("tensor a: bf16 4 x 128 x 128, batch stride 0 "
                        "(broadcast: one matrix for every entry)"));
  o.batchStrides = {std::nullopt, 0, std::nullopt};
  EXPECT_EQ(planLaunch(m, problem(128, 256, 128, 4), o).args[7].value, 2u);

  // C interleaved row by row (an [M, batch, N] tensor's batch view): the
  // entries are disjoint.
  o.batchStrides = {std::nullopt, std::nullopt, 256};
  o.leadingDims = {std::nullopt, std::nullopt, 4u * 256};
  plan = planLaunch(m, problem(128, 256, 128, 4), o);
  EXPECT_EQ(plan.matrix(Tensor::C).batchStride, 256u);
  EXPECT_FALSE(plan.matrix(Tensor::C).blocked());
}

TEST(Plan, BadBatchStrides) {
  KernelManifest m = batchedManifest();
  PlanOptions o = options();
  // C entries 1000 elements apart overlap (each spans 127 x 256 + 256).
  o.batchStrides = {std::nullopt, std::nullopt, 1000};
  EXPECT_THAT(errorOf([&] { planLaunch(m, problem(128, 256, 128, 4), o); },
                      ErrorKind::Usage),
              HasSubstr("tensor c: batch stride 1000 elements makes the 4 "
                        "entries of C overlap (each spans 32768 elements: "
                        "128 rows of 256, 256 apart); C needs a stride of at "
                        "least 32768"));
  o.batchStrides = {std::nullopt, std::nullopt, 0};
  EXPECT_THAT(errorOf([&] { planLaunch(m, problem(128, 256, 128, 4), o); },
                      ErrorKind::Usage),
              HasSubstr("(0 would make every entry write the same C)"));
  // 16-byte multiples only.
  o.batchStrides = {12, std::nullopt, std::nullopt};
  EXPECT_THAT(errorOf([&] { planLaunch(m, problem(128, 256, 128, 4), o); },
                      ErrorKind::Usage),
              HasSubstr("tensor a: batch stride 12 elements = 24 bytes is not "
                        "a multiple of 16 bytes (TMA rule"));
  // Staged matrices have packed scratch entries.
  o.batchStrides = {0, std::nullopt, std::nullopt};
  EXPECT_THAT(errorOf([&] { planLaunch(m, problem(128, 256, 100, 4), o); },
                      ErrorKind::Usage),
              HasSubstr("tensor a: a batch stride with a staged matrix"));
}

TEST(Plan, TmaRules) {
  TmaPlan t;
  t.tensor = Tensor::B;
  t.paramIndex = 1;
  t.dtype = DType::F16;
  t.globalDim = {100, 0, 1};
  t.globalStrides = {200, 0};
  t.box = {300, 8, 1};
  t.swizzle = Swizzle::B64;
  EXPECT_THAT(
      checkTmaPlan(t),
      ElementsAre(
          "tensor b (params[1]): boxDim[0] = 300 must be 1..256 (TMA rule)",
          "tensor b (params[1]): globalStrides[0] = 200 bytes is not a "
          "multiple of 16 (TMA rule)",
          "tensor b (params[1]): globalDim[1] = 0 must be 1..2^32 (TMA rule)",
          "tensor b (params[1]): inner box extent 300 x f16 = 600 bytes is "
          "not a multiple of 16 bytes (TMA rule)",
          "tensor b (params[1]): inner box extent 600 bytes exceeds the 64B "
          "swizzle span of 64 bytes (TMA rule)"));
}

TEST(Plan, RunnerSupport) {
  KernelManifest m = manifest();
  m.layouts.a = Layout::Col;
  m.layouts.b = Layout::Row;
  checkRunnerSupports(m);
  m.types.c = DType::U8;
  m.cluster = {2, 2, 1};
  std::string message =
      errorOf([&] { checkRunnerSupports(m); }, ErrorKind::Bundle);
  EXPECT_THAT(message, ::testing::Not(HasSubstr("layouts")));
  EXPECT_THAT(message, HasSubstr("types.c: output dtype u8 is not "
                                 "supported by this runner yet"));
  EXPECT_THAT(message, HasSubstr("cluster: [2, 2, 1] is not supported"));

  // WGMMA transposes only 16-bit operands: 8-bit and f32 A and B are
  // K-major, and an fp8 C is row-major.
  KernelManifest lowp = manifest();
  lowp.types.a = lowp.types.b = DType::E4M3;
  lowp.types.c = DType::E4M3;
  lowp.layouts.b = Layout::Row;
  lowp.layouts.c = Layout::Col;
  message = errorOf([&] { checkRunnerSupports(lowp); }, ErrorKind::Bundle);
  EXPECT_THAT(message, HasSubstr("layouts: a(row) b(row) with e4m3 inputs: "
                                 "8-bit and f32 (tf32) A and B must be "
                                 "K-major"));
  EXPECT_THAT(message, HasSubstr("c(col) with an fp8 output"));
}

TEST(Plan, Describe) {
  LaunchPlan plan = planLaunch(manifest(), problem(128, 256, 64), options());
  std::string text = describePlan(plan);
  EXPECT_THAT(text, HasSubstr("grid: [1, 1, 1] (persistent: min(1 CTAs = 1 "
                              "blocks of 1x1 tiles, 132 co-resident CTAs) in "
                              "clusters of 1)\n"));
  EXPECT_THAT(text, HasSubstr("params[1]: tma_descriptor b: rank 2, dims [64, "
                              "256], strides [128] bytes, box [64, 256]"));
  EXPECT_EQ(plan.configString(),
            "grid [1, 1, 1] block [384, 1, 1] cluster [1, 1, 1] smem 1024");
  EXPECT_EQ(plan.problem.flops(), 2.0 * 128 * 256 * 64);
  EXPECT_THAT(text, ::testing::Not(HasSubstr("staging")));

  plan = planLaunch(manifest(), problem(300, 600, 100), options());
  text = describePlan(plan);
  EXPECT_THAT(text, HasSubstr("tensor a: bf16 300 x 100, ld 100 (200 bytes), "
                              "staged: the kernel reads a copy with ld 128 "
                              "(256 bytes, 76800 bytes of scratch)\n"));
  EXPECT_THAT(text, HasSubstr("tensor c: bf16 300 x 600, ld 600 (1200 "
                              "bytes)\n"));
  EXPECT_THAT(text, HasSubstr("staging: 230400 bytes of scratch; a, b copied "
                              "into it before each launch\n"));
  EXPECT_THAT(text, HasSubstr("params[0]: tma_descriptor a: rank 2, dims [100, "
                              "300], strides [256] bytes"));
}

} // namespace
