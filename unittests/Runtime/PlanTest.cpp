//===- PlanTest.cpp - Launch planning -------------------------------------===//

#include "gemm/Runtime/Plan.h"
#include "gemm/Runtime/Error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace gemm::bundle;
using namespace gemm::runtime;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

KernelManifest manifest(GridPolicy policy = GridPolicy::Persistent) {
  KernelManifest m;
  m.name = m.kernel = "k";
  m.ptx = "k.ptx";
  m.block = {384, 1, 1};
  m.grid = policy;
  m.tile = {128, 256, 64};
  m.dynamicSmemBytes = 1024;
  m.params = {Param::tmaDescriptor({Tensor::A, {64, 128}}),
              Param::tmaDescriptor({Tensor::B, {64, 256}}),
              Param::tmaDescriptor({Tensor::C, {64, 32}}),
              Param::problemSize(ProblemDim::M),
              Param::problemSize(ProblemDim::N),
              Param::problemSize(ProblemDim::K)};
  return m;
}

Problem problem(uint64_t m, uint64_t n, uint64_t k, uint64_t batch = 1) {
  Problem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.batch = batch;
  return p;
}

PlanOptions options(uint32_t capacity = 132, bool pad = false) {
  PlanOptions o;
  o.persistentCtaCapacity = capacity;
  o.padLeadingDims = pad;
  return o;
}

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

TEST(Plan, OddLeadingDimensionNamesTensorValueAndRule) {
  std::string message =
      errorOf([] { planLaunch(manifest(), problem(64, 64, 4095), options()); },
              ErrorKind::Usage);
  EXPECT_THAT(message,
              HasSubstr("tensor a: leading dimension 4095 x bf16 = 8190 bytes "
                        "is not a multiple of 16 bytes"));
  EXPECT_THAT(message, HasSubstr("tensor b: leading dimension 4095"));
  EXPECT_THAT(message, HasSubstr("--pad-leading-dims"));
  EXPECT_THAT(message, ::testing::Not(HasSubstr("tensor c")));
}

TEST(Plan, PadLeadingDims) {
  LaunchPlan plan =
      planLaunch(manifest(), problem(100, 4095, 4095), options(132, true));
  EXPECT_TRUE(plan.padded());
  EXPECT_EQ(plan.matrix(Tensor::A).ld, 4096u);
  EXPECT_EQ(plan.matrix(Tensor::C).ld, 4096u);
  EXPECT_EQ(plan.matrix(Tensor::C).inner, 4095u);
  EXPECT_EQ(plan.tma[0].globalDim[0], 4095u);
  EXPECT_EQ(plan.tma[0].globalStrides[0], 8192u);
  // fp8 rows pad to 16 elements, f32 rows to 4.
  KernelManifest m = manifest();
  m.types = {DType::E4M3, DType::E4M3, DType::F32, DType::F32};
  m.params[0].tma.box = {128, 128};
  m.params[1].tma.box = {128, 256};
  m.params[2].tma.box = {32, 32};
  plan = planLaunch(m, problem(8, 9, 17), options(132, true));
  EXPECT_EQ(plan.matrix(Tensor::A).ld, 32u);
  EXPECT_EQ(plan.matrix(Tensor::C).ld, 12u);
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
  m.types.c = DType::E4M3;
  m.cluster = {2, 2, 1};
  std::string message =
      errorOf([&] { checkRunnerSupports(m); }, ErrorKind::Bundle);
  EXPECT_THAT(message, HasSubstr("layouts: a col, b col, c row is not "
                                 "supported by this runner yet"));
  EXPECT_THAT(message, HasSubstr("types.c: output dtype e4m3 is not "
                                 "supported by this runner yet"));
  EXPECT_THAT(message, HasSubstr("cluster: [2, 2, 1] is not supported"));
}

TEST(Plan, Describe) {
  LaunchPlan plan = planLaunch(manifest(), problem(128, 256, 64), options());
  std::string text = describePlan(plan);
  EXPECT_THAT(text, HasSubstr("grid: [1, 1, 1] (persistent: min(1 tiles, 132 "
                              "co-resident CTAs) in clusters of 1)\n"));
  EXPECT_THAT(text, HasSubstr("params[1]: tma_descriptor b: rank 2, dims [64, "
                              "256], strides [128] bytes, box [64, 256]"));
  EXPECT_EQ(plan.configString(),
            "grid [1, 1, 1] block [384, 1, 1] cluster [1, 1, 1] smem 1024");
  EXPECT_EQ(plan.problem.flops(), 2.0 * 128 * 256 * 64);
}

} // namespace
