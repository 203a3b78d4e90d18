//===- DispatchTest.cpp - Kernel configurations and the dispatcher --------===//

#include "TestModels.h"
#include "gemm/Bundle/StreamK.h"
#include "gemm/Dispatch/Dispatcher.h"
#include "gemm/Dispatch/Staging.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace gemm::dispatch;
using gemm::bundle::Arch;
using gemm::bundle::Layout;
using gemm::bundle::Tensor;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

KernelConfig parsed(const std::string &name) {
  std::string error;
  auto config = KernelConfig::parse(name, error);
  EXPECT_TRUE(config) << error;
  return config.value_or(KernelConfig{});
}

/// The message of the DispatchError that parsing `text` throws ("" when it
/// parses).
std::string parseError(const std::string &text, const std::string &source) {
  try {
    DispatchModel::parse(text, source);
  } catch (const DispatchError &e) {
    return e.what();
  }
  return "";
}

Problem problem(uint64_t m, uint64_t n, uint64_t k, DType type = DType::BF16) {
  Problem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.inType = type;
  return p;
}

/// A model of two candidates: a 64x64 pingpong tile (fast on small
/// problems) and a 128x256 cooperative tile (fast on large ones), with one
/// training point each that says the physics is 2x too optimistic for
/// 64x64 at 64x4096x4096.
const std::string SmallModel = test::testModel(
    1,
    R"("64x64_pingpong": 0.8, "128x256_coop": 0.85,
                       "128x128_coop": 0.78)",
    R"("64x64x64_pingpong_c1x1_rm_s8_st0": [[64, 4096, 4096, 0.6931]],
                       "128x256x64_coop_c1x1_rm_s8_st0": [[4096, 4096, 4096, 0.0]])");

/// SmallModel at version 2: the staging and direct-kernel constants, and a
/// 64x64 direct kernel among the candidates.
const std::string DirectModel = test::directModel();

TEST(KernelConfigTest, NamesRoundTrip) {
  for (const char *name : {"sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0",
                           "sm90_f16_64x128x64_pingpong_c1x1_rn_s16_st4",
                           "sm90_bf16_64x64x64_pingpong_c1x2_rm_s8_st0_k4",
                           "sm90_bf16_256x128x64_coop_c2x1_rn_s4_st0_sk",
                           "sm90_bf16_cf32_128x128x64_coop_c1x1_rm_s8_st0",
                           "sm90_f16_64x32x64_direct_c1x1_rm_s8_st0"})
    EXPECT_EQ(parsed(name).name(), name);
  KernelConfig key = parsed("128x256x64_coop_c2x1_rm_s8_st0");
  EXPECT_EQ(key.inType, DType::BF16);
  EXPECT_EQ(key.clusterM, 2u);
  EXPECT_EQ(key.key(), "128x256x64_coop_c2x1_rm_s8_st0");
}

TEST(KernelConfigTest, BadNamesSayWhatIsExpected) {
  std::string error;
  EXPECT_FALSE(KernelConfig::parse("128x256", error));
  EXPECT_THAT(error, HasSubstr("expected e.g. sm90_bf16_128x256x64"));
  EXPECT_FALSE(
      KernelConfig::parse("sm90_bf15_128x256x64_coop_c2x1_rm_s8_st0", error));
  EXPECT_THAT(error, HasSubstr("unknown input type 'bf15'"));
}

TEST(KernelConfigTest, MlirIsTheCompilersInput) {
  EXPECT_EQ(parsed("sm90_bf16_64x64x64_pingpong_c1x2_rn_s4_st3_k2").mlir(),
            "gemm.matmul @sm90_bf16_64x64x64_pingpong_c1x2_rn_s4_st3_k2 "
            "a(bf16, row) b(bf16, col) c(bf16, row) acc(f32)\n"
            "    config(#gemm.config<arch = sm_90a, tile = [64, 64, 64], "
            "cluster = [1, 2], stages = 3, schedule = pingpong, raster = "
            "along_n, swizzle = 4, scheduler = split_k, splits = 2>)\n");
  EXPECT_THAT(parsed("sm90_f16_cf32_128x128x64_coop_c1x1_rm_s8_st0_sk").mlir(),
              HasSubstr("a(f16, row) b(f16, col) c(f32, row) acc(f32)"));
  // (227 KB - 16 KB staging - 1 KB reserve) / 48 KB per 128x256 stage.
  EXPECT_EQ(parsed("128x256x64_coop_c1x1_rm_s8_st0").derivedStages(), 4u);
}

TEST(KernelConfigTest, DirectKernels) {
  KernelConfig direct = parsed("sm90_bf16_128x64x64_direct_c1x1_rm_s8_st0");
  EXPECT_TRUE(direct.direct());
  EXPECT_EQ(direct.derivedStages(), 2u);
  EXPECT_EQ(HardwareParams::tileKey(direct), "128x64_direct");
  EXPECT_THAT(direct.mlir(), HasSubstr("tile = [128, 64, 64], cluster = [1, "
                                       "1], stages = 0, schedule = direct"));
  // What the compiler gives the kernel as .minnctapersm, and what ptxas fits
  // without spills (test/PTX/sm90-direct.mlir).
  // Registers bound these tiles; C's staging rows (f32 outputs the most)
  // leave room for as many CTAs.
  for (uint32_t outputBytes : {2u, 4u}) {
    EXPECT_EQ(directResidentCtas(64, 64, 64, outputBytes), 3u);
    EXPECT_EQ(directResidentCtas(64, 32, 64, outputBytes), 4u);
    EXPECT_EQ(directResidentCtas(128, 32, 64, outputBytes), 2u);
    EXPECT_EQ(directResidentCtas(128, 64, 64, outputBytes), 1u);
    EXPECT_EQ(directResidentCtas(128, 128, 64, outputBytes), 1u);
  }
}

TEST(StagingTest, TheRuntimesRuleForTma) {
  StagingShape shape{100, 100, 100, 1};
  // 200-byte rows are not 16-byte multiples; an odd address neither.
  EXPECT_TRUE(stagedForTma(Tensor::A, shape, DType::BF16, 100));
  EXPECT_FALSE(stagedForTma(Tensor::A, shape, DType::BF16, 104));
  EXPECT_TRUE(stagedForTma(Tensor::A, shape, DType::BF16, 104, 0x1002));
  EXPECT_FALSE(stagedForTma(Tensor::C, shape, DType::F32, 100));
  // A TMA store writes a C line's last 16-byte chunk whole: 100 bf16 (200
  // bytes) lines are staged even 104 apart; a column-major C's lines are M
  // long.
  EXPECT_TRUE(stagedForTma(Tensor::C, shape, DType::BF16, 104));
  EXPECT_FALSE(stagedForTma(Tensor::C, {100, 104, 100, 1}, DType::BF16, 104));
  gemm::bundle::TensorLayouts columnC;
  columnC.c = Layout::Col;
  EXPECT_TRUE(stagedForTma(Tensor::C, {100, 104, 100, 1}, DType::BF16, 104, 0,
                           RealignPolicy::Auto, columnC));
  EXPECT_FALSE(stagedForTma(Tensor::C, {104, 100, 100, 1}, DType::BF16, 104, 0,
                            RealignPolicy::Auto, columnC));
  EXPECT_TRUE(tmaStoresWholeChunks(DType::F32, 4));
  EXPECT_FALSE(tmaStoresWholeChunks(DType::BF16, 130));
  // Rows that straddle L2 lines, where reused enough: realigned (staged).
  StagingShape big{7784, 7784, 7784, 1};
  EXPECT_TRUE(stagedForTma(Tensor::A, big, DType::BF16, 7784));
  EXPECT_FALSE(
      stagedForTma(Tensor::A, big, DType::BF16, 7784, 0, RealignPolicy::Never));
  EXPECT_FALSE(stagedForTma(Tensor::C, big, DType::BF16, 7784));
  EXPECT_THAT(packedStaging({44, 206, 46, 1}, DType::BF16),
              ::testing::ElementsAre(true, true, true));
  // 204 f32 elements are 816 bytes, 51 x 16; 204 bf16 ones are not.
  EXPECT_THAT(packedStaging({44, 204, 46, 1}, DType::BF16),
              ::testing::ElementsAre(true, true, true));
  EXPECT_THAT(packedStaging({44, 204, 46, 1}, DType::BF16, DType::F32),
              ::testing::ElementsAre(true, true, false));
  EXPECT_THAT(packedStaging({4096, 4096, 4096, 1}, DType::F16),
              ::testing::ElementsAre(false, false, false));
}

TEST(ModelTest, DirectKernelsAndStagingCopies) {
  DispatchModel model = DispatchModel::parse(DirectModel, "direct.json");
  KernelConfig direct = parsed("64x64x64_direct_c1x1_rm_s8_st0");
  KernelConfig tma = parsed("64x64x64_pingpong_c1x1_rm_s8_st0");
  Problem odd = problem(44, 206, 46);
  Problem aligned = odd;
  odd.staged = {true, true, true};
  EXPECT_EQ(odd.toString(), "m=44 n=206 k=46 bf16");
  EXPECT_EQ(odd.stagingNote(), " (a, b, c staged for TMA)");
  EXPECT_EQ(aligned.stagingNote(), "");
  // A TMA kernel pays a launch for A and B, one for C, and the bytes twice.
  Estimate copied = model.estimate(tma, odd, {});
  Estimate plain = model.estimate(tma, aligned, {});
  double bytes = 2.0 * (44 * 46 + 206 * 46 + 44 * 206) * 2;
  EXPECT_NEAR(copied.stagingSeconds, 2 * 4e-6 + bytes / 2e12, 1e-12);
  EXPECT_NEAR(copied.physicsSeconds - plain.physicsSeconds,
              copied.stagingSeconds, 1e-12);
  EXPECT_EQ(plain.stagingSeconds, 0.0);
  // The direct kernel never stages: its estimate ignores the flags. One
  // k-block of one round: launch + the round trip (the issue of 128 x 64
  // element loads at 40 G/s is faster) + the tile's write.
  Estimate d = model.estimate(direct, odd, {});
  EXPECT_EQ(d.stagingSeconds, 0.0);
  EXPECT_NEAR(d.physicsSeconds,
              model.estimate(direct, aligned, {}).physicsSeconds, 1e-15);
  EXPECT_EQ(d.tiles, 4u);
  EXPECT_GT(d.physicsSeconds, 5.6e-6);
  EXPECT_LT(d.physicsSeconds, 5.7e-6);
  // Rounds of resident CTAs: 64x64 keeps 3 per SM, so 132 x 3 tiles are one
  // round, one more tile makes two.
  Estimate one = physicsEstimate(model.params(), direct,
                                 problem(64 * 132 * 3, 64, 64), {});
  Estimate two = physicsEstimate(model.params(), direct,
                                 problem(64 * (132 * 3 + 1), 64, 64), {});
  EXPECT_GT(two.computeSeconds, 1.9 * one.computeSeconds);
  // Small problems only.
  EXPECT_TRUE(isApplicable(direct, problem(1, 1, 1), {}));
  EXPECT_TRUE(isApplicable(direct, problem(1024, 1024, 2048), {}));
  EXPECT_FALSE(isApplicable(direct, problem(1024, 1024, 2049), {}));
  // Split-K: a CTA per k-range where the tiles fill at most half the SMs
  // and every range has at least 2 k-blocks. 17x1395x12222 (a test problem
  // whose rows TMA cannot read): 22 tiles of 191 k-blocks, so eight splits
  // are 176 CTAs, one round of 3 per SM, of 24 k-blocks each; the fixup
  // adds each CTA's partial written and read at fixup_tbps.
  KernelConfig split = parsed("64x64x64_direct_c1x1_rm_s8_st0_k8");
  EXPECT_FALSE(isApplicable(split, problem(17, 1395, 960), {}));
  EXPECT_TRUE(isApplicable(split, problem(17, 1395, 961), {}));
  EXPECT_FALSE(isApplicable(split, problem(17, 64 * 67, 12222), {}));
  Problem skinny = problem(17, 1395, 12222);
  Estimate whole = physicsEstimate(model.params(), direct, skinny, {});
  Estimate eight = physicsEstimate(model.params(), split, skinny, {});
  EXPECT_EQ(eight.tiles, 22u);
  EXPECT_NEAR(eight.waves, 176.0 / (132 * 3), 1e-12);
  const HardwareParams &p = model.params();
  // A k-block is the loads' round trip: the issue of two CTAs' 128 x 64
  // element loads at 40 G/s takes 0.41 us of the 0.6.
  double kBlock = p.directKBlockSeconds;
  double write = 64 * 64 * 2 * 264 / p.writeBytesPerSecond +
                 64 * 64 * 4 * 2 * 264 / p.fixupBytesPerSecond;
  EXPECT_NEAR(eight.computeSeconds, 24 * kBlock + write, 1e-12);
  EXPECT_LT(eight.physicsSeconds, 0.25 * whole.physicsSeconds);
  // The dispatcher takes it where TMA kernels would pay copies, and not
  // where rows are aligned and the problem large.
  Selection small = select(odd, model, {});
  EXPECT_EQ(small.config.name(), "sm90_bf16_64x64x64_direct_c1x1_rm_s8_st0");
  EXPECT_THAT(small.reason, HasSubstr("by the fitted model (direct.json"));
  Problem large = problem(1024, 1024, 2048);
  EXPECT_NE(select(large, model, {}).config.name(),
            "sm90_bf16_64x64x64_direct_c1x1_rm_s8_st0");
}

TEST(ModelTest, WavesFollowTheSmCount) {
  DispatchModel model = DispatchModel::parse(SmallModel, "small.json");
  KernelConfig config = parsed("128x256x64_coop_c1x1_rm_s8_st0");
  Estimate h200 = model.estimate(config, problem(4096, 4096, 4096), Target{});
  EXPECT_EQ(h200.tiles, 512u);
  EXPECT_NEAR(h200.waves, 512.0 / 132, 1e-9);
  EXPECT_FALSE(h200.memoryBound());
  Estimate half = model.estimate(config, problem(4096, 4096, 4096),
                                 Target{Arch::Sm90a, 66});
  EXPECT_GT(half.computeSeconds, 1.9 * h200.computeSeconds);
}

TEST(ModelTest, CloseLimitsCombineByTheirSharpness) {
  // 318 x 3584 x 18944 on 64x64 pingpong tiles: the k-blocks of 132 CTAs
  // wait on the L2 feed, with the MMAs and the ring's latency not far
  // below it.
  DispatchModel hard = DispatchModel::parse(SmallModel, "small.json");
  EXPECT_EQ(hard.params().bottleneckSharpness, 0);
  std::string text = SmallModel;
  text.replace(text.find("\"cluster_compute\": 1.0"), 22,
               "\"cluster_compute\": 1.0, \"bottleneck_sharpness\": 1");
  DispatchModel additive = DispatchModel::parse(text, "sum.json");
  EXPECT_EQ(additive.params().bottleneckSharpness, 1);
  KernelConfig config = parsed("64x64x64_pingpong_c1x1_rm_s8_st0");
  Problem p = problem(318, 3584, 18944);
  Estimate slowest = physicsEstimate(hard.params(), config, p, {});
  Estimate sum = physicsEstimate(additive.params(), config, p, {});
  // p = 1 adds the limits: more than the slowest, at most all three.
  EXPECT_GT(sum.computeSeconds, 1.2 * slowest.computeSeconds);
  EXPECT_LT(sum.computeSeconds, 3.0 * slowest.computeSeconds);
  text.replace(text.find("\"bottleneck_sharpness\": 1"), 25,
               "\"bottleneck_sharpness\": 0");
  EXPECT_THAT(parseError(text, "zero.json"),
              HasSubstr("zero.json: hardware.bottleneck_sharpness: 0.000000 "
                        "is not positive"));
}

TEST(ModelTest, MmasAndHbmReadsCloseToEachOtherCombine) {
  DispatchModel model = DispatchModel::parse(SmallModel, "small.json");
  EXPECT_EQ(model.params().memorySharpness, 0);
  HardwareParams sharp = model.params();
  sharp.memorySharpness = 2;
  KernelConfig config = parsed("128x256x64_coop_c1x1_rm_s8_st0");
  // Near the ridge point (M of a few hundred rows, a large B) a unit's
  // MMAs and its share of the HBM reads are close: their 2-norm is up to
  // 1.41 times the slower one. Far from it (4096 cubed: 1/8 as many bytes
  // a flop) the slower one alone remains.
  auto ratio = [&](Problem p) {
    return physicsEstimate(sharp, config, p, {}).physicsSeconds /
           physicsEstimate(model.params(), config, p, {}).physicsSeconds;
  };
  Estimate ridge =
      physicsEstimate(model.params(), config, problem(256, 16384, 16384), {});
  ASSERT_GT(std::min(ridge.computeSeconds, ridge.memorySeconds),
            0.5 * std::max(ridge.computeSeconds, ridge.memorySeconds));
  EXPECT_GT(ratio(problem(256, 16384, 16384)), 1.1);
  EXPECT_LT(ratio(problem(256, 16384, 16384)), 1.42);
  EXPECT_LT(ratio(problem(4096, 4096, 4096)), 1.02);
}

TEST(ModelTest, SplitKRunsMoreUnitsInFewerKBlocks) {
  DispatchModel model = DispatchModel::parse(SmallModel, "small.json");
  Problem p = problem(64, 1024, 16384);
  Estimate whole = physicsEstimate(
      model.params(), parsed("64x64x64_pingpong_c1x1_rm_s8_st0"), p, {});
  Estimate split = physicsEstimate(
      model.params(), parsed("64x64x64_pingpong_c1x1_rm_s8_st0_k4"), p, {});
  // 16 tiles: whole, 16 CTAs each walk 256 k-blocks; in 4 ranges, 64 CTAs
  // walk 64 each and pay for their partial tiles.
  EXPECT_NEAR(whole.waves, 16.0 / 132, 1e-9);
  EXPECT_NEAR(split.waves, 64.0 / 132, 1e-9);
  EXPECT_LT(split.physicsSeconds, 0.5 * whole.physicsSeconds);
}

TEST(StreamKTest, ThePartialWaveIsSplitInAlignedRanges) {
  using gemm::bundle::streamKPlan;
  auto plan = [](uint32_t units, uint32_t ctas, uint32_t kBlocks) {
    gemm::bundle::StreamKPlan p = streamKPlan(units, ctas, kBlocks, 4);
    return std::vector<uint32_t>{p.dpUnits, p.workers, p.workersPerUnit};
  };
  // 3 waves + 52 units: two workers each (132 / 52).
  EXPECT_EQ(plan(448, 132, 128), (std::vector<uint32_t>{396, 104, 2}));
  // 3 waves + 30: four each (the most), 3 waves + 44: three each.
  EXPECT_EQ(plan(426, 132, 66), (std::vector<uint32_t>{396, 120, 4}));
  EXPECT_EQ(plan(440, 132, 66), (std::vector<uint32_t>{396, 132, 3}));
  // More than half a wave left, or whole waves: nothing shared.
  EXPECT_EQ(plan(512, 132, 64), (std::vector<uint32_t>{512, 0, 0}));
  EXPECT_EQ(plan(264, 132, 64), (std::vector<uint32_t>{264, 0, 0}));
  // Fewer units than CTAs; k-blocks bound the workers of a unit.
  EXPECT_EQ(plan(64, 132, 128), (std::vector<uint32_t>{0, 128, 2}));
  EXPECT_EQ(plan(3, 132, 2), (std::vector<uint32_t>{0, 6, 2}));
  EXPECT_EQ(plan(3, 132, 1), (std::vector<uint32_t>{3, 0, 0}));
}

TEST(ModelTest, StreamKTakesWholeWavesAndOneAlignedShare) {
  DispatchModel model = DispatchModel::parse(SmallModel, "small.json");
  auto compute = [&](const char *name, Problem p) {
    return physicsEstimate(model.params(), parsed(name), p, {}).computeSeconds;
  };
  // 144 tiles of 128x256: a wave and 12 units in quarters, against two
  // waves of whole tiles.
  Problem twelve = problem(1536, 3072, 4096);
  EXPECT_NEAR(compute("128x256x64_coop_c1x1_rm_s8_st0_sk", twelve) /
                  compute("128x256x64_coop_c1x1_rm_s8_st0", twelve),
              1.25 / 2, 1e-9);
  // 512 tiles (3 waves + 116): the same four waves as whole tiles.
  Problem cube = problem(4096, 4096, 4096);
  EXPECT_NEAR(compute("128x256x64_coop_c1x1_rm_s8_st0_sk", cube) /
                  compute("128x256x64_coop_c1x1_rm_s8_st0", cube),
              1, 1e-9);
}

TEST(ModelTest, ApplicableWhereCandidatesAreMeasured) {
  auto applies = [](const char *name, uint64_t m, uint64_t n, uint64_t k) {
    return isApplicable(parsed(name), problem(m, n, k), Target{});
  };
  EXPECT_TRUE(applies("64x64x64_pingpong_c1x1_rm_s8_st0", 1, 1, 1));
  EXPECT_FALSE(applies("128x256x64_coop_c1x1_rm_s8_st0", 64, 8192, 8192));
  EXPECT_TRUE(applies("128x256x64_coop_c1x1_rm_s8_st0", 65, 8192, 8192));
  // Split-K: 16 tiles, 256 k-blocks; not with 4 k-blocks, not past 66 tiles.
  EXPECT_TRUE(applies("64x64x64_pingpong_c1x1_rm_s8_st0_k4", 64, 1024, 16384));
  EXPECT_FALSE(applies("64x64x64_pingpong_c1x1_rm_s8_st0_k4", 64, 1024, 256));
  EXPECT_FALSE(applies("64x64x64_pingpong_c1x1_rm_s8_st0_k2", 64, 8192, 8192));
  // Stream-K past one wave only; clusters only two tiles across.
  EXPECT_FALSE(applies("128x256x64_coop_c1x1_rm_s8_st0_sk", 1024, 4096, 4096));
  EXPECT_TRUE(applies("128x256x64_coop_c1x1_rm_s8_st0_sk", 4096, 4096, 4096));
  EXPECT_FALSE(applies("128x256x64_coop_c2x1_rm_s8_st0", 128, 4096, 4096));
  EXPECT_TRUE(applies("128x256x64_coop_c2x1_rm_s8_st0", 129, 4096, 4096));
}

TEST(ModelTest, CorrectionIsLearnedNearTrainingShapesOnly) {
  DispatchModel model = DispatchModel::parse(SmallModel, "small.json");
  KernelConfig small = parsed("64x64x64_pingpong_c1x1_rm_s8_st0");
  // At the training point: weight 1, shrunk by the prior 0.25: 2^(1/1.25).
  Estimate at = model.estimate(small, problem(64, 4096, 4096), {});
  EXPECT_NEAR(at.evidence, 1.0, 1e-9);
  EXPECT_NEAR(at.correction, std::exp(0.6931 / 1.25), 1e-6);
  EXPECT_NEAR(at.seconds, at.physicsSeconds * at.correction, 1e-15);
  // Far away (M 64x larger): no evidence, no correction.
  Estimate far = model.estimate(small, problem(4096, 4096, 4096), {});
  EXPECT_LT(far.evidence, 1e-6);
  EXPECT_NEAR(far.correction, 1.0, 1e-6);
  // Not a candidate: physics alone.
  Estimate other = model.estimate(parsed("128x128x64_coop_c1x1_rm_s8_st0"),
                                  problem(64, 4096, 4096), {});
  EXPECT_EQ(other.correction, 1.0);
  EXPECT_EQ(other.evidence, 0.0);
}

TEST(SelectTest, TheFastestCandidateAndWhy) {
  DispatchModel model = DispatchModel::parse(SmallModel, "small.json");
  EXPECT_EQ(model.gpuName(), "NVIDIA H200");
  EXPECT_EQ(model.trainingShapes(), 2u);
  Selection big = select(problem(8192, 8192, 8192, DType::F16), model, {});
  EXPECT_EQ(big.source, Source::Model);
  EXPECT_EQ(big.config.name(), "sm90_f16_128x256x64_coop_c1x1_rm_s8_st0");
  EXPECT_THAT(big.reason, HasSubstr("fastest of the 2 candidates that apply, "
                                    "by the fitted model (small.json, 2 "
                                    "training shapes on an NVIDIA H200, 132 "
                                    "SMs)"));
  EXPECT_THAT(big.reason, HasSubstr("2048 tiles of 128x256"));
  Selection tiny = select(problem(1, 64, 64), model, {});
  EXPECT_EQ(tiny.config.name(), "sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0");
  // The choice is the estimate's minimum.
  for (const KernelConfig &c : model.candidates()) {
    KernelConfig typed = c;
    typed.inType = DType::F16;
    EXPECT_LE(big.estimate.seconds,
              model.estimate(typed, problem(8192, 8192, 8192, DType::F16), {})
                  .seconds);
  }
}

TEST(SelectTest, LibraryFallsBackToThePhysics) {
  DispatchModel model = DispatchModel::parse(SmallModel, "small.json");
  Problem big = problem(8192, 8192, 8192);
  KernelConfig other = parsed("sm90_bf16_128x128x64_coop_c1x1_rm_s8_st0");
  std::vector<KernelConfig> library = {
      other, parsed("sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0")};
  // Of the model's candidates only 64x64 is there: it is picked.
  Selection s = select(big, model, {}, &library);
  EXPECT_EQ(s.source, Source::Model);
  EXPECT_EQ(s.config.name(), "sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0");
  library = {other, parsed("sm90_f16_128x256x64_coop_c1x1_rm_s8_st0")};
  s = select(big, model, {}, &library);
  EXPECT_EQ(s.source, Source::ModelAmongAvailable);
  EXPECT_EQ(s.config, other);
  EXPECT_THAT(s.reason, HasSubstr("none of the model's candidates is "
                                  "available"));
  library = {parsed("sm90_f16_128x256x64_coop_c1x1_rm_s8_st0")};
  try {
    select(big, model, {}, &library);
    ADD_FAILURE() << "no error";
  } catch (const DispatchError &e) {
    EXPECT_THAT(e.what(), HasSubstr("no kernel for m=8192 n=8192 k=8192 bf16 "
                                    "among the available ones"));
  }
}

TEST(KernelConfigTest, Layouts) {
  // The default layouts have no token; others one after the types.
  KernelConfig config = parsed("sm90_bf16_cf32_ambncc_128x256x64_coop_c2x1_"
                               "rm_s8_st0_sk");
  EXPECT_EQ(config.layouts.a, Layout::Col);
  EXPECT_EQ(config.layouts.b, Layout::Row);
  EXPECT_EQ(config.layouts.c, Layout::Col);
  EXPECT_EQ(config.outType, DType::F32);
  EXPECT_TRUE(config.streamK);
  EXPECT_EQ(config.name(),
            "sm90_bf16_cf32_ambncc_128x256x64_coop_c2x1_rm_s8_st0_sk");
  EXPECT_EQ(config.key(), "128x256x64_coop_c2x1_rm_s8_st0_sk");
  EXPECT_THAT(config.mlir(),
              HasSubstr("a(bf16, col) b(bf16, row) c(f32, col) acc(f32)"));
  KernelConfig plain =
      parsed("sm90_bf16_akbkcr_128x256x64_coop_c2x1_rm_s8_st0");
  EXPECT_EQ(plain.name(), "sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0");
  EXPECT_NE(parsed("sm90_bf16_akbncr_128x256x64_coop_c2x1_rm_s8_st0"), plain);
  std::string error;
  EXPECT_FALSE(KernelConfig::parse(
      "sm90_bf16_axbkcr_128x256x64_coop_c2x1_rm_s8_st0", error));
  EXPECT_EQ(layoutToken(config.layouts), "ambncc");
  EXPECT_EQ(layoutTriple(config.layouts), "col,row,col");
  auto triple = parseLayoutTriple("col,row,col", error);
  ASSERT_TRUE(triple);
  EXPECT_EQ(*triple, config.layouts);
  EXPECT_FALSE(parseLayoutTriple("col,row", error));
  EXPECT_THAT(error, HasSubstr("is not three layouts of A, B and C"));
  EXPECT_FALSE(parseLayoutTriple("col,row,diag", error));
  EXPECT_FALSE(parseLayoutTriple("col,row,row,row", error));
}

TEST(KernelConfigTest, TilesTheVerifierRefuses) {
  // buildable() agrees with the matmul verifier: tile K spans one 128-byte
  // swizzle row, tile M is 64-row atoms up to 256, pingpong M 64 or 128.
  std::string why;
  EXPECT_FALSE(
      parsed("sm90_bf16_64x256x32_pingpong_c1x1_rm_s8_st0").buildable(&why));
  EXPECT_THAT(why, HasSubstr("tile K of 32 must span 128 bytes of bf16"));
  EXPECT_THAT(why, HasSubstr("use BK = 64"));
  EXPECT_FALSE(
      parsed("sm90_bf16_128x128x128_coop_c1x1_rm_s8_st0").buildable(&why));
  EXPECT_FALSE(parsed("sm90_e4m3_cbf16_qtt_128x128x64_coop_c1x1_rm_s8_st0")
                   .buildable(&why));
  EXPECT_THAT(why, HasSubstr("use BK = 128"));
  EXPECT_TRUE(parsed("sm90_e4m3_cbf16_qtt_128x128x128_coop_c1x1_rm_s8_st0")
                  .buildable());
  EXPECT_FALSE(
      parsed("sm90_bf16_320x128x64_coop_c1x1_rm_s8_st0").buildable(&why));
  EXPECT_THAT(why, HasSubstr("64-row WGMMA atom"));
  EXPECT_FALSE(
      parsed("sm90_bf16_96x64x64_pingpong_c1x1_rm_s8_st0").buildable(&why));
  EXPECT_THAT(why, HasSubstr("64-row WGMMA atom"));
  EXPECT_FALSE(
      parsed("sm90_bf16_192x64x64_pingpong_c1x1_rm_s8_st0").buildable(&why));
  EXPECT_THAT(why, HasSubstr("tile M must be 64 or 128"));
}

TEST(KernelConfigTest, ClustersStagesAndSchedulersTheCompilerRefuses) {
  // The config attribute's and the materializers' rules: clusters of at
  // most 8 CTAs whose multicast slices are whole 8-line atoms (along K for
  // an MN-major operand), ring depths that fit, split-K ranges, and the
  // direct kernel's one CTA per tile and register budget.
  std::string why;
  EXPECT_TRUE(parsed("sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0").buildable());
  EXPECT_FALSE(
      parsed("sm90_bf16_128x256x64_coop_c4x4_rm_s8_st0").buildable(&why));
  EXPECT_THAT(why, HasSubstr("at most 8 in all"));
  EXPECT_FALSE(
      parsed("sm90_bf16_128x88x64_coop_c2x1_rm_s8_st0").buildable(&why));
  EXPECT_THAT(why, HasSubstr("tile N of 88 cannot be cut into 2 multicast "
                             "slices"));
  // An M-major A is sliced along K (64 lines): a cluster of 8 along N cuts
  // it into 8-line atoms, where M (128) would have taken 16.
  EXPECT_TRUE(
      parsed("sm90_bf16_ambkcr_128x128x64_coop_c1x8_rm_s8_st0").buildable());
  KernelConfig deep = parsed("sm90_bf16_128x128x64_coop_c1x1_rm_s8_st0");
  deep.stages = deep.derivedStages();
  EXPECT_TRUE(deep.buildable());
  deep.stages += 1;
  EXPECT_FALSE(deep.buildable(&why));
  EXPECT_THAT(why, HasSubstr("stages: use 0 (the deepest ring that fits "
                             "shared memory) or 2 to"));
  deep.stages = 1;
  EXPECT_FALSE(deep.buildable());
  KernelConfig split = parsed("sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0_k2");
  EXPECT_TRUE(split.buildable());
  split.splits = 17;
  EXPECT_FALSE(split.buildable(&why));
  EXPECT_THAT(why, HasSubstr("splits must be in [1, 16]"));
  split.splits = 2;
  split.streamK = true;
  EXPECT_FALSE(split.buildable(&why));
  EXPECT_THAT(why, HasSubstr("stream-K takes no splits"));

  EXPECT_TRUE(parsed("sm90_bf16_128x128x64_direct_c1x1_rm_s8_st0").buildable());
  EXPECT_FALSE(
      parsed("sm90_bf16_64x128x64_direct_c1x1_rm_s8_st0").buildable(&why));
  EXPECT_THAT(why, HasSubstr("160 registers per thread, over 144"));
  EXPECT_FALSE(
      parsed("sm90_bf16_128x64x64_direct_c2x1_rm_s8_st0").buildable(&why));
  EXPECT_THAT(why, HasSubstr("one CTA per tile"));
  EXPECT_FALSE(
      parsed("sm90_bf16_128x64x64_direct_c1x1_rm_s8_st3").buildable(&why));
  EXPECT_THAT(why, HasSubstr("stages must be 0 or 2"));
  EXPECT_FALSE(
      parsed("sm90_bf16_192x64x64_direct_c1x1_rm_s8_st0").buildable(&why));
  EXPECT_THAT(why, HasSubstr("tile M must be 64 or 128"));
  // Split-K, one CTA per k-range (test/PTX/sm90-direct.mlir); no stream-K.
  EXPECT_TRUE(
      parsed("sm90_bf16_64x64x64_direct_c1x1_rm_s8_st0_k4").buildable());
  EXPECT_FALSE(
      parsed("sm90_bf16_64x64x64_direct_c1x1_rm_s8_st0_sk").buildable(&why));
  EXPECT_THAT(why, HasSubstr("no cluster or stream-K"));
}

TEST(KernelConfigTest, ThreeConsumersOf192Rows) {
  // A 192-row cooperative tile: three consumers of 64 rows, each with 96
  // accumulator registers at most (setmaxnreg 152), and three consumers'
  // staging slots out of the ring's shared memory.
  KernelConfig tall = parsed("sm90_bf16_192x128x64_coop_c1x1_rm_s8_st0");
  EXPECT_EQ(tall.consumers(), 3u);
  EXPECT_TRUE(tall.buildable());
  EXPECT_EQ(tall.derivedStages(), 4u);
  EXPECT_EQ(parsed("sm90_bf16_192x192x64_coop_c1x1_rm_s8_st0").derivedStages(),
            3u);
  EXPECT_EQ(parsed("sm90_bf16_128x192x64_coop_c1x1_rm_s8_st0").consumers(), 2u);
  std::string why;
  EXPECT_FALSE(
      parsed("sm90_bf16_192x208x64_coop_c1x1_rm_s8_st0").buildable(&why));
  EXPECT_THAT(why, HasSubstr("104 accumulator registers per consumer thread, "
                             "more than 96 (three consumers)"));
}

TEST(KernelConfigTest, NarrowTilesOfEitherC) {
  // The materializer's rule: tile N a multiple of 8 whose last epilogue
  // sub-tile is narrower, with a column-major or a row-major C, with
  // tensor, row and column scales but without block scales, an fp8 C or
  // groups.
  std::string why;
  EXPECT_TRUE(parsed("sm90_bf16_128x144x64_coop_c1x1_rm_s8_st0").buildable());
  EXPECT_TRUE(
      parsed("sm90_bf16_akbkcc_128x72x64_coop_c1x1_rm_s8_st0").buildable());
  EXPECT_TRUE(
      parsed("sm90_bf16_cf32_64x88x64_pingpong_c1x1_rm_s8_st0").buildable());
  EXPECT_TRUE(parsed("sm90_e4m3_cbf16_qtt_128x144x128_coop_c1x1_rm_s8_st0")
                  .buildable());
  EXPECT_TRUE(
      parsed("sm90_e4m3_cbf16_qrc_akbkcc_64x16x128_pingpong_c1x1_rm_s8_st0_k2")
          .buildable());
  EXPECT_TRUE(
      parsed("sm90_s8_cbf16_qrc_128x80x128_coop_c1x1_rm_s8_st0").buildable());
  KernelConfig blocks = parsed("sm90_bf16_128x144x64_coop_c1x1_rm_s8_st0");
  blocks.inType = DType::E4M3;
  blocks.tileK = 128;
  blocks.quant.a = blocks.quant.b = gemm::bundle::ScaleGranularity::Block;
  EXPECT_FALSE(blocks.buildable(&why));
  EXPECT_THAT(why, HasSubstr("without block scales or an fp8 output and not "
                             "grouped, of 8"));
  KernelConfig grouped =
      parsed("sm90_bf16_grouped_128x96x64_coop_c1x1_rm_s8_st0");
  EXPECT_FALSE(grouped.buildable(&why));
  EXPECT_THAT(why, HasSubstr("epilogue sub-tile"));

  // The library holds a narrow candidate in the layouts that build: a
  // K-major B (A K- or M-major, plain and batched), not an N-major B
  // (loaded in 64-column blocks).
  std::string text = SmallModel;
  text.replace(text.find("\"128x128_coop\": 0.78"), 20,
               "\"128x128_coop\": 0.78, \"128x144_coop\": 0.9");
  text.replace(text.find("\"128x256x64_coop_c1x1_rm_s8_st0\""), 32,
               "\"128x144x64_coop_c1x1_rm_s8_st0\": [], "
               "\"128x256x64_coop_c1x1_rm_s8_st0\"");
  DispatchModel model = DispatchModel::parse(text, "narrow.json");
  std::vector<std::string> narrow;
  for (const KernelConfig &config :
       librarySet(model, {DType::BF16}, libraryLayouts(), /*batched=*/true)) {
    EXPECT_TRUE(config.buildable()) << config.name();
    if (config.tileN == 144)
      narrow.push_back(config.name());
  }
  EXPECT_THAT(narrow,
              ::testing::UnorderedElementsAre(
                  "sm90_bf16_128x144x64_coop_c1x1_rm_s8_st0",
                  "sm90_bf16_ambkcr_128x144x64_coop_c1x1_rm_s8_st0",
                  "sm90_bf16_batched_128x144x64_coop_c1x1_rm_s8_st0",
                  "sm90_bf16_ambkcr_batched_128x144x64_coop_c1x1_rm_s8_st0"));
}

TEST(SelectTest, LayoutsKeepTheConfiguration) {
  DispatchModel model = DispatchModel::parse(SmallModel, "small.json");
  Problem p = problem(16, 8192, 8192);
  Selection plain = select(p, model, {});
  p.layouts.a = Layout::Col;
  p.layouts.b = Layout::Row;
  Selection s = select(p, model, {});
  EXPECT_EQ(s.config.key(), plain.config.key());
  EXPECT_EQ(s.config.layouts, p.layouts);
  EXPECT_FALSE(s.transposed);
  EXPECT_EQ(p.toString(), "m=16 n=8192 k=8192 bf16 a col b row c row");
}

TEST(SelectTest, ColumnMajorCWithoutItsKernelsIsTheTransposedProblem) {
  DispatchModel model = DispatchModel::parse(SmallModel, "small.json");
  std::vector<KernelConfig> library =
      librarySet(model, {DType::BF16}, libraryLayouts());
  // The 2 candidates in each of the 4 input layouts, C row-major only.
  EXPECT_EQ(library.size(), 8u);
  for (const KernelConfig &config : library)
    EXPECT_EQ(config.layouts.c, Layout::Row);

  // A col-major C of M = 8192, N = 64: C^T is 64 x 8192, with A' = B
  // (K-major stays K-major) and B' = A (M-major: the N-major B of the
  // transposed problem).
  Problem p = problem(8192, 64, 8192);
  p.layouts.a = Layout::Col;
  p.layouts.c = Layout::Col;
  Problem t = p.transposed();
  EXPECT_EQ(t.m, 64u);
  EXPECT_EQ(t.n, 8192u);
  EXPECT_EQ(t.layouts.a, Layout::Row);
  EXPECT_EQ(t.layouts.b, Layout::Row);
  EXPECT_EQ(t.layouts.c, Layout::Row);
  Selection s = select(p, model, {}, &library);
  EXPECT_TRUE(s.transposed);
  EXPECT_EQ(s.config.name(),
            "sm90_bf16_akbncr_64x64x64_pingpong_c1x1_rm_s8_st0");
  EXPECT_THAT(s.reason, HasSubstr("as the transposed problem C^T = B A^T (m=64 "
                                  "n=8192 k=8192 bf16 a row b row c row)"));
  // Without a library the column-major C kernel itself is picked.
  Selection exact = select(p, model, {});
  EXPECT_FALSE(exact.transposed);
  EXPECT_EQ(exact.config.layouts, p.layouts);
}

/// SmallModel with a candidate of transposed problems: a 128x72 cooperative
/// tile with a column-major C, measured on N x M x K.
const std::string TransposedModel = test::testModel(
    1, R"("64x64_pingpong": 0.8, "128x256_coop": 0.85, "128x72_coop": 0.8)",
    R"("64x64x64_pingpong_c1x1_rm_s8_st0": [[203, 5568, 6984, 0.0]],
       "128x256x64_coop_c1x1_rm_s8_st0": [],
       "akbkcc_128x72x64_coop_c1x1_rm_s8_st0": [[5568, 203, 6984, -0.1]])");

TEST(SelectTest, AModelOfSeveralGpusSaysWhichTimedThePick) {
  EXPECT_EQ(DispatchModel::parse(SmallModel, "small.json")
                .residualsGpu(parsed("64x64x64_pingpong_c1x1_rm_s8_st0"),
                              problem(64, 64, 64)),
            "");
  std::string text = SmallModel;
  text.replace(text.find("\"NVIDIA H200\""), 13,
               "\"NVIDIA H200 + NVIDIA H100 80GB HBM3\"");
  std::string gpus = R"("residuals_gpu": {
      "64x64x64_pingpong_c1x1_rm_s8_st0": "NVIDIA H100 80GB HBM3",
      "128x256x64_coop_c1x1_rm_s8_st0": "NVIDIA H200"},
  "candidates")";
  text.replace(text.find("\"candidates\""), 12, gpus);
  DispatchModel model = DispatchModel::parse(text, "both.json");
  EXPECT_EQ(model.residualsGpu(parsed("64x64x64_pingpong_c1x1_rm_s8_st0"),
                               problem(64, 64, 64)),
            "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(model.residualsGpu(parsed("128x128x64_coop_c1x1_rm_s8_st0"),
                               problem(64, 64, 64)),
            "");
  Selection tiny = select(problem(1, 64, 64), model, {});
  EXPECT_THAT(tiny.reason,
              HasSubstr("training shapes on an NVIDIA H200 + NVIDIA H100 80GB "
                        "HBM3, 132 SMs)"));
  EXPECT_THAT(tiny.reason,
              EndsWith("; its residuals were timed on an NVIDIA H100 80GB "
                       "HBM3"));
  Selection big = select(problem(8192, 8192, 8192), model, {});
  EXPECT_THAT(big.reason, EndsWith("timed on an NVIDIA H200"));
  // A candidate is its key and C's layout: the same tile measured on
  // transposed problems on the H100 and directly on the H200.
  std::string transposed = TransposedModel;
  transposed.replace(transposed.find("\"candidates\": {"), 15,
                     R"("residuals_gpu": {
      "akbkcc_128x72x64_coop_c1x1_rm_s8_st0": "NVIDIA H100 80GB HBM3",
      "128x72x64_coop_c1x1_rm_s8_st0": "NVIDIA H200"},
  "candidates": {"128x72x64_coop_c1x1_rm_s8_st0": [],)");
  Selection flipped = select(problem(203, 5568, 6984),
                             DispatchModel::parse(transposed, "t"), {});
  EXPECT_TRUE(flipped.transposed);
  EXPECT_THAT(flipped.reason,
              EndsWith("k=6984 bf16 a row b col c col); its residuals were "
                       "timed on an NVIDIA H100 80GB HBM3"));
  // Where a tile has residuals of one C layout only, estimate() takes them
  // for the other too, and so does the GPU.
  std::string onlyTransposed = TransposedModel;
  onlyTransposed.replace(onlyTransposed.find("\"candidates\""), 12,
                         R"("residuals_gpu": {
      "akbkcc_128x72x64_coop_c1x1_rm_s8_st0": "NVIDIA H100 80GB HBM3"},
  "candidates")");
  EXPECT_EQ(DispatchModel::parse(onlyTransposed, "t")
                .residualsGpu(parsed("128x72x64_coop_c1x1_rm_s8_st0"),
                              problem(5568, 203, 6984)),
            "NVIDIA H100 80GB HBM3");
  // A low-precision problem takes the lowp section's residuals, which
  // record no GPU.
  Problem fp8 = problem(64, 64, 64, DType::E4M3);
  EXPECT_EQ(model.residualsGpu(parsed("64x64x64_pingpong_c1x1_rm_s8_st0"), fp8),
            "");
  // A GPU for a kernel that is no candidate is refused.
  std::string stray = text;
  stray.replace(stray.find("128x256x64_coop_c1x1_rm_s8_st0\": \"NVIDIA"), 30,
                "128x128x64_coop_c1x1_rm_s8_st0");
  EXPECT_THAT(parseError(stray, "stray.json"),
              HasSubstr("stray.json: residuals_gpu.128x128x64_coop_c1x1_rm_s8_"
                        "st0: not one of the model's candidates"));
}

TEST(SelectTest, CandidatesOfTransposedProblemsPutMAlongTheTileN) {
  DispatchModel model = DispatchModel::parse(TransposedModel, "t.json");
  KernelConfig narrow = model.candidates().back();
  EXPECT_EQ(narrow.layouts.c, Layout::Col);
  // Its point on 5568 x 203 x 6984 is the training shape 203 x 5568 x 6984,
  // which the 64x64 tile measured directly.
  EXPECT_EQ(model.trainingShapes(), 1u);
  EXPECT_EQ(narrow.tileN, 72u);
  // 203 x 5568 x 6984: as C^T = B A^T (5568 x 203), 44 x 3 = 132 tiles of
  // 128 x 72 fill the SMs; the row-major tiles leave rows idle (2 x 22 of
  // 128 x 256 on 44 SMs, or 4 x 87 of 64 x 64 in 2.6 waves).
  Problem p = problem(203, 5568, 6984);
  Selection s = select(p, model, {});
  EXPECT_TRUE(s.transposed);
  EXPECT_EQ(s.config.name(), "sm90_bf16_akbkcc_128x72x64_coop_c1x1_rm_s8_st0");
  EXPECT_EQ(s.estimate.tiles, 132u);
  EXPECT_THAT(s.reason,
              HasSubstr("as the transposed problem C^T = B A^T (m=5568 n=203 "
                        "k=6984 bf16 a row b col c col)"));
  // Its residual (measured on 5568 x 203) corrects it there.
  EXPECT_GT(s.estimate.evidence, 0.5);
  EXPECT_LT(s.estimate.correction, 1.0);

  // The library holds it in the flipped layouts that build: a K-major A
  // stays the K-major B of the transposed problem (an M-major A would be an
  // N-major B, loaded in 64-column blocks: no 72-wide tile).
  std::vector<KernelConfig> library =
      librarySet(model, {DType::BF16}, libraryLayouts());
  std::vector<std::string> transposedNames;
  for (const KernelConfig &config : library)
    if (config.layouts.c == Layout::Col)
      transposedNames.push_back(config.name());
  EXPECT_THAT(transposedNames,
              ::testing::UnorderedElementsAre(
                  "sm90_bf16_akbkcc_128x72x64_coop_c1x1_rm_s8_st0",
                  "sm90_bf16_ambkcc_128x72x64_coop_c1x1_rm_s8_st0"));
  Selection fromLibrary = select(p, model, {}, &library);
  EXPECT_TRUE(fromLibrary.transposed);
  EXPECT_EQ(fromLibrary.config, s.config);
  // An N-major B (b(row)) is the M-major A of the transposed problem.
  Problem nMajorB = p;
  nMajorB.layouts.b = Layout::Row;
  EXPECT_EQ(select(nMajorB, model, {}, &library).config.name(),
            "sm90_bf16_ambkcc_128x72x64_coop_c1x1_rm_s8_st0");
  // An M-major A has no such kernel: the row-major tiles compute it.
  Problem mMajorA = p;
  mMajorA.layouts.a = Layout::Col;
  Selection rowTiles = select(mMajorA, model, {}, &library);
  EXPECT_FALSE(rowTiles.transposed);
  EXPECT_EQ(rowTiles.config.layouts.c, Layout::Row);
  // Nor does the compiler build one (an f32 C, which the library lacks, is
  // compiled on first use): the candidate is passed over, not picked.
  Problem mMajorAToF32 = mMajorA;
  mMajorAToF32.outType = DType::F32;
  Selection compiled = select(mMajorAToF32, model, {});
  EXPECT_TRUE(compiled.config.buildable()) << compiled.config.name();
  EXPECT_FALSE(compiled.transposed);

  // Batches, groups and low-precision problems the model's "lowp" section
  // measured no kernel of transposed problems for keep the row-major tiles
  // (LowPrecisionTest has measured ones).
  Problem batched = p;
  batched.batch = 2;
  EXPECT_FALSE(select(batched, model, {}).transposed);
  Problem fp8 = problem(203, 5568, 6984, DType::E4M3);
  fp8.outType = DType::BF16;
  EXPECT_FALSE(select(fp8, model, {}).transposed);

  // A column-major C runs the column-major tile itself (the narrow side is
  // its N), or the row-major tiles of its transpose.
  Problem columns = problem(5568, 203, 6984);
  columns.layouts.c = Layout::Col;
  Selection direct = select(columns, model, {}, &library);
  EXPECT_FALSE(direct.transposed);
  EXPECT_EQ(direct.config.name(),
            "sm90_bf16_akbkcc_128x72x64_coop_c1x1_rm_s8_st0");
  Problem wide = problem(8192, 8192, 8192);
  wide.layouts.c = Layout::Col;
  Selection flipped = select(wide, model, {}, &library);
  EXPECT_TRUE(flipped.transposed);
  EXPECT_EQ(flipped.config.layouts.c, Layout::Row);
}

TEST(SelectTest, BatchesAreOneProblemOfTheirRowsAndWholeTiles) {
  DispatchModel model = DispatchModel::parse(SmallModel, "small.json");
  KernelConfig named = parsed("sm90_bf16_ambncr_batched_128x256x64_coop_c1x1_"
                              "rm_s8_st0");
  EXPECT_TRUE(named.batched);
  EXPECT_EQ(named.name(),
            "sm90_bf16_ambncr_batched_128x256x64_coop_c1x1_rm_s8_st0");
  EXPECT_THAT(named.mlir(), HasSubstr("acc(f32) batched\n"));
  EXPECT_TRUE(
      parsed("sm90_bf16_batched_64x64x64_pingpong_c1x1_rm_s8_st0").batched);

  // 8 x (1024 x 8192 x 8192): a batched kernel, estimated with the batch's
  // tiles and bytes.
  Problem p = problem(1024, 8192, 8192);
  p.batch = 8;
  EXPECT_EQ(p.toString(), "m=1024 n=8192 k=8192 bf16 batch=8");
  Selection s = select(p, model, {});
  EXPECT_EQ(s.source, Source::Model);
  EXPECT_EQ(s.config.name(),
            "sm90_bf16_batched_128x256x64_coop_c1x1_rm_s8_st0");
  Problem one = problem(1024, 8192, 8192);
  EXPECT_EQ(model.estimate(s.config, p, {}).tiles,
            8 * model.estimate(s.config, one, {}).tiles);
  // Batches take whole tiles only.
  EXPECT_FALSE(isApplicable(parsed("64x64x64_pingpong_c1x1_rm_s8_st0_k4"),
                            [] {
                              Problem q = problem(64, 1024, 16384);
                              q.batch = 2;
                              return q;
                            }(),
                            {}));

  // The library holds the batched twins of what batches can get.
  std::vector<KernelConfig> library =
      librarySet(model, {DType::BF16}, libraryLayouts(), /*batched=*/true);
  size_t batched = 0;
  for (const KernelConfig &config : library)
    if (config.batched) {
      ++batched;
      EXPECT_EQ(config.splits, 1u) << config.name();
      EXPECT_FALSE(config.streamK) << config.name();
    }
  EXPECT_EQ(batched, 4u * 2);
  EXPECT_EQ(library.size(), 8u + 4 * 2);
  s = select(p, model, {}, &library);
  EXPECT_TRUE(s.config.batched);
}

TEST(SelectTest, DirectKernelsOnlyWhereTheyRunWell) {
  DispatchModel model = DispatchModel::parse(DirectModel, "direct.json");
  KernelConfig direct = parsed("64x64x64_direct_c1x1_rm_s8_st0");
  Problem odd = problem(44, 206, 46);
  odd.staged = {true, true, true};
  ASSERT_TRUE(select(odd, model, {}).config.direct());
  // The direct kernel takes every layout as strides, but its lanes walk K:
  // MN-major A or B would be read uncoalesced, so it is not a candidate for
  // them; a column-major C is written through its strides.
  Problem mMajor = odd, nMajor = odd, cColumns = odd, batch = odd;
  mMajor.layouts.a = Layout::Col;
  nMajor.layouts.b = Layout::Row;
  cColumns.layouts.c = Layout::Col;
  batch.batch = 3;
  for (const Problem &p : {mMajor, nMajor, batch}) {
    EXPECT_FALSE(isApplicable(direct, p, {})) << p.toString();
    EXPECT_FALSE(select(p, model, {}).config.direct()) << p.toString();
  }
  EXPECT_TRUE(isApplicable(direct, cColumns, {}));
  Selection c = select(cColumns, model, {});
  EXPECT_TRUE(c.config.direct());
  EXPECT_EQ(c.config.name(), "sm90_bf16_akbkcc_64x64x64_direct_c1x1_rm_s8_st0");
  // The library holds direct kernels of K-major A and B only, never batched.
  std::vector<KernelConfig> library =
      librarySet(model, {DType::BF16}, libraryLayouts(), /*batched=*/true);
  size_t directs = 0;
  for (const KernelConfig &config : library)
    if (config.direct()) {
      ++directs;
      EXPECT_FALSE(config.batched) << config.name();
      EXPECT_EQ(config.layouts.a, Layout::Row) << config.name();
      EXPECT_EQ(config.layouts.b, Layout::Col) << config.name();
    }
  EXPECT_EQ(directs, 1u);
  // Only direct kernels available: a problem they cannot run is refused,
  // saying why.
  std::vector<KernelConfig> onlyDirect = {
      parsed("sm90_bf16_ambkcr_64x64x64_direct_c1x1_rm_s8_st0")};
  try {
    select(mMajor, model, {}, &onlyDirect);
    ADD_FAILURE() << "an M-major A dispatched to a direct kernel";
  } catch (const DispatchError &e) {
    EXPECT_THAT(e.what(), HasSubstr("direct kernels (schedule = direct) run "
                                    "single problems of at most 2^31 "
                                    "multiply-adds with K-major A and B"));
    EXPECT_THAT(e.what(), Not(HasSubstr("split along K")));
  }
  // A split direct kernel is also passed over where its k-ranges would be
  // shorter than 2 k-blocks (K = 448 is 7 k-blocks, under 2 x 4).
  std::vector<KernelConfig> onlySplit = {
      parsed("sm90_bf16_64x64x64_direct_c1x1_rm_s8_st0_k4")};
  try {
    select(problem(64, 64, 448), model, {}, &onlySplit);
    ADD_FAILURE() << "a 7 k-block problem dispatched to 4 direct splits";
  } catch (const DispatchError &e) {
    EXPECT_THAT(e.what(), HasSubstr("split along K (scheduler = split_k) run "
                                    "only where their tiles fill at most "
                                    "half the SMs and each split gets at "
                                    "least 4 k-blocks (2 for direct"));
  }
  // Staging flags follow the memory into the transposed problem, and
  // packed rows are counted in each layout's stored rows.
  Problem t = cColumns;
  t.staged = {true, false, true};
  EXPECT_THAT(t.transposed().staged, ::testing::ElementsAre(false, true, true));
  gemm::bundle::TensorLayouts cols;
  cols.a = Layout::Col; // stored rows of M = 64: 128 bytes, aligned
  EXPECT_THAT(packedStaging({64, 206, 46, 1}, DType::BF16, {}, cols),
              ::testing::ElementsAre(false, true, true));
}

TEST(SelectTest, RefusesWhatItCannotDispatch) {
  DispatchModel model = DispatchModel::parse(SmallModel, "small.json");
  Target sm100{Arch::Sm100a, 148};
  EXPECT_THROW(select(problem(64, 64, 64), model, sm100), DispatchError);
  auto message = [&](const Problem &p) -> std::string {
    try {
      select(p, model, {});
    } catch (const DispatchError &e) {
      return e.what();
    }
    return "no error";
  };
  Problem mixed = problem(64, 64, 64, DType::E4M3);
  mixed.inTypeB = DType::BF16;
  EXPECT_THAT(message(mixed), HasSubstr("m=64 n=64 k=64 e4m3 x bf16 -> bf16: "
                                        "sm_90a kernels take A and B of bf16"));
  EXPECT_THAT(message(problem(0, 64, 64)),
              HasSubstr("every size must be at least 1"));
}

TEST(DispatchModelTest, BadFilesNameTheProblem) {
  auto message = [](const std::string &text) -> std::string {
    try {
      DispatchModel::parse(text, "m.json");
    } catch (const DispatchError &e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_THAT(message("{"), HasSubstr("m.json: not a JSON object"));
  EXPECT_THAT(message(R"({"format": "x"})"), HasSubstr("\"format\" is not"));
  EXPECT_THAT(message(R"({"format": "gemm-dispatch-model", "version": 9})"),
              HasSubstr("version 9; this dispatcher reads versions 1 to 2"));
  std::string good = SmallModel;
  auto edited = [&](const std::string &from, const std::string &to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return message(text);
  };
  EXPECT_THAT(edited("\"launch_us\": 8, ", ""),
              HasSubstr("m.json: hardware.launch_us is missing"));
  EXPECT_THAT(edited("\"l2_tbps\": 12", "\"l2_tbps\": -1"),
              HasSubstr("hardware.l2_tbps: -1.000000 is not positive"));
  EXPECT_THAT(edited("\"128x256_coop\": 0.85", "\"128x256_coop\": 1.5"),
              HasSubstr("tile_efficiency.128x256_coop: 1.500000 is not in"));
  EXPECT_THAT(edited("64x64x64_pingpong_c1x1_rm_s8_st0\"", "huge\""),
              HasSubstr("candidates.huge: "));
  EXPECT_THAT(edited("\"128x256_coop\": 0.85,", ""),
              HasSubstr("no tile_efficiency for 128x256_coop"));
  EXPECT_THAT(edited("[64, 4096, 4096, 0.6931]", "[64, 4096]"),
              HasSubstr("expected [m, n, k, log ratio] points"));
  EXPECT_THROW(DispatchModel::load("/nonexistent/m.json"), DispatchError);
  // Version 2 files have the staging and direct constants; version 1 files
  // cannot hold direct kernels.
  std::string v2 = DirectModel;
  auto editedV2 = [&](const std::string &from, const std::string &to) {
    std::string text = v2;
    text.replace(text.find(from), from.size(), to);
    return message(text);
  };
  EXPECT_THAT(editedV2("\"stage_tbps\": 2,", ""),
              HasSubstr("hardware.stage_tbps is missing (version 2 model files "
                        "have the staging and direct-kernel constants)"));
  EXPECT_THAT(editedV2("\"version\": 2", "\"version\": 1"),
              HasSubstr("a direct kernel in a model without the direct-kernel "
                        "constants (version 1)"));
  EXPECT_THAT(editedV2("\"64x64_direct\": 0.7", "\"64x64_other\": 0.7"),
              HasSubstr("no tile_efficiency for 64x64_direct"));
}

TEST(KernelLibraryTest, IndexRoundTripAndMissingBundles) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "gemm-dispatch-test-library";
  fs::remove_all(dir);
  fs::create_directories(dir);
  { std::ofstream(dir / "source.json") << SmallModel; }
  DispatchModel model = DispatchModel::load(dir / "source.json");
  std::vector<KernelConfig> set = librarySet(model, {DType::BF16, DType::F16});
  EXPECT_EQ(set.size(), 4u);
  KernelLibrary::writeIndex(dir / "lib", dir / "source.json", set);
  try {
    KernelLibrary::load(dir / "lib");
    ADD_FAILURE() << "no error";
  } catch (const DispatchError &e) {
    EXPECT_THAT(e.what(), HasSubstr("the index lists bundles that are not "
                                    "there (rebuild the library)"));
  }
  for (const KernelConfig &config : set)
    std::ofstream(dir / "lib" / (config.name() + ".json")) << "{}";
  KernelLibrary library = KernelLibrary::load(dir / "lib");
  EXPECT_EQ(library.configs().size(), set.size());
  Selection s = library.select(problem(8192, 8192, 8192), {});
  EXPECT_EQ(s.source, Source::Model);
  EXPECT_EQ(library.manifestPath(s.config),
            dir / "lib" / "sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0.json");
  EXPECT_EQ(library.model().candidates().size(), 2u);
  fs::remove_all(dir);
}

} // namespace
