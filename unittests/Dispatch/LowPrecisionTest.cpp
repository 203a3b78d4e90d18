//===- LowPrecisionTest.cpp - fp8, int8 and tf32 configurations -----------===//
//
// The dispatcher's view of low-precision kernels (docs/LowPrecision.md):
// their names (types, quant spelling), the gemm.matmul they compile from,
// which tiles the compiler builds for them, the model's picks and the
// kernel library's share of them.
//
//===----------------------------------------------------------------------===//

#include "TestModels.h"
#include "gemm/Bundle/Accumulators.h"
#include "gemm/Dispatch/Dispatcher.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

using namespace gemm::dispatch;
using gemm::bundle::ScaleGranularity;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

KernelConfig parsed(const std::string &name) {
  std::string error;
  auto config = KernelConfig::parse(name, error);
  EXPECT_TRUE(config) << error;
  return config.value_or(KernelConfig{});
}

Problem lowp(uint64_t m, uint64_t n, uint64_t k, DType in,
             std::optional<DType> out = std::nullopt, const char *quant = "",
             std::optional<DType> b = std::nullopt) {
  Problem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.inType = in;
  p.outType = out;
  p.inTypeB = b;
  std::string error;
  if (*quant)
    p.quant = *QuantConfig::parse(quant, error);
  return p;
}

/// The H200 model's hardware constants and tile efficiencies (2026-11-24)
/// with its whole-tile candidates and a split-K and a stream-K one, without
/// training points: low-precision kernels get the physics alone anyway.
const char *H200Model = R"({
  "format": "gemm-dispatch-model", "version": 1,
  "gpu": {"name": "NVIDIA H200", "sm_count": 132},
  "fitted_on": {},
  "hardware": {"launch_us": 8.0447, "load_latency_us": 1.6102,
               "l2_tbps": 11.9285, "read_tbps": 4.0938, "write_tbps": 4.6131,
               "fixup_tbps": 5.0398, "stream_k_fixed_us": 11.9476,
               "stream_k_traffic": 1.0, "cluster_compute": 1.0198},
  "tile_efficiency": {"128x128_coop": 0.8123, "128x128_pingpong": 0.8208,
                      "128x192_coop": 0.8465, "128x256_coop": 0.8536,
                      "128x64_coop": 0.7931, "128x64_pingpong": 0.7717,
                      "256x128_coop": 0.836, "256x64_coop": 0.8,
                      "64x128_pingpong": 0.8, "64x192_pingpong": 0.7413,
                      "64x256_pingpong": 0.8, "64x64_pingpong": 0.8},
  "correction": {"bandwidth": 0.6, "prior_weight": 0.5},
  "candidates": {
    "128x128x64_coop_c1x1_rm_s8_st0": [],
    "128x128x64_coop_c1x1_rm_s8_st0_k2": [],
    "128x128x64_pingpong_c1x1_rm_s8_st0": [],
    "128x128x64_pingpong_c1x1_rm_s8_st0_sk": [],
    "128x192x64_coop_c1x1_rm_s8_st0": [],
    "128x256x64_coop_c1x1_rm_s8_st0": [],
    "128x64x64_coop_c1x1_rm_s8_st0": [],
    "128x64x64_pingpong_c1x1_rm_s8_st0": [],
    "256x128x64_coop_c1x1_rm_s8_st0": [],
    "256x64x64_coop_c1x1_rm_s8_st0": [],
    "64x128x64_pingpong_c1x1_rm_s8_st0": [],
    "64x192x64_pingpong_c1x1_rm_s8_st0": [],
    "64x256x64_pingpong_c1x1_rm_s8_st0": [],
    "64x64x64_pingpong_c1x1_rm_s8_st0": []
  }
})";

const DispatchModel &h200Model() {
  static const DispatchModel model = DispatchModel::parse(H200Model, "h200");
  return model;
}

TEST(LowPrecisionTest, QuantSpellings) {
  std::string error;
  auto block = QuantConfig::parse("qbb", error);
  ASSERT_TRUE(block);
  EXPECT_EQ(block->a, ScaleGranularity::Block);
  EXPECT_EQ(block->spelling(), "qbb");
  auto fast = QuantConfig::parse("tnf", error);
  ASSERT_TRUE(fast);
  EXPECT_EQ(fast->a, ScaleGranularity::Tensor);
  EXPECT_FALSE(fast->b);
  EXPECT_TRUE(fast->fastAccumulation);
  EXPECT_EQ(QuantConfig::parse("rc4", error)->promoteEvery, 4u);
  EXPECT_EQ(QuantConfig().spelling(), "");
  EXPECT_FALSE(QuantConfig::parse("qxx", error));
  EXPECT_THAT(error, HasSubstr("not a quant spelling: 'qxx'"));
}

TEST(LowPrecisionTest, NamesRoundTrip) {
  for (const char *name :
       {"sm90_e4m3_cbf16_qtt_128x128x128_coop_c1x1_rm_s8_st0",
        "sm90_e4m3xe5m2_cf16_qrc4_128x192x128_coop_c2x1_rm_s8_st0",
        "sm90_e4m3_ce4m3_qttf_128x256x128_coop_c1x1_rm_s8_st0",
        "sm90_e5m2_cbf16_64x128x128_pingpong_c1x1_rm_s8_st0_k2",
        "sm90_s8_cs32_128x256x128_coop_c1x1_rm_s8_st0",
        "sm90_u8xs8_cbf16_qrc_128x256x128_coop_c1x1_rm_s8_st0_sk",
        "sm90_f32_128x256x32_coop_c1x1_rm_s8_st0"})
    EXPECT_EQ(parsed(name).name(), name);
  KernelConfig mixed = parsed("sm90_u8xs8_cbf16_qrc_128x256x128_coop_c1x1_rm_"
                              "s8_st0");
  EXPECT_EQ(mixed.inType, DType::U8);
  EXPECT_EQ(mixed.bType(), DType::S8);
  EXPECT_EQ(mixed.cType(), DType::BF16);
  EXPECT_EQ(mixed.quant.b, ScaleGranularity::Col);
  // Defaults: fp8 -> bf16, s8 -> s32, f32 -> f32.
  EXPECT_EQ(KernelConfig::defaultOutput(DType::E4M3), DType::BF16);
  EXPECT_EQ(KernelConfig::defaultOutput(DType::S8), DType::S32);
  EXPECT_EQ(KernelConfig::tileKFor(DType::E5M2), 128u);
  EXPECT_EQ(KernelConfig::tileKFor(DType::F32), 32u);
}

TEST(LowPrecisionTest, MlirIsTheCompilersInput) {
  EXPECT_EQ(parsed("sm90_e4m3xe5m2_ce4m3_qrc4_128x128x128_coop_c1x1_rm_s8_st0")
                .mlir(),
            "gemm.matmul @sm90_e4m3xe5m2_ce4m3_qrc4_128x128x128_coop_c1x1_rm_"
            "s8_st0 a(f8E4M3FN, row) b(f8E5M2, col) c(f8E4M3FN, row) "
            "acc(f32)\n"
            "    quant(#gemm.quant<a = row, b = col, c = tensor, "
            "promote_every = 4>)\n"
            "    config(#gemm.config<arch = sm_90a, tile = [128, 128, 128], "
            "cluster = [1, 1], stages = 0, schedule = cooperative, raster = "
            "along_m, swizzle = 8>)\n");
  EXPECT_THAT(
      parsed("sm90_s8xu8_cbf16_qtt_128x256x128_coop_c1x1_rm_s8_st0").mlir(),
      HasSubstr("a(si8, row) b(ui8, col) c(bf16, row) acc(i32)\n"
                "    quant(#gemm.quant<a = tensor, b = tensor>)"));
  EXPECT_THAT(parsed("sm90_f32_128x256x32_coop_c1x1_rm_s8_st0").mlir(),
              HasSubstr("a(f32, row) b(f32, col) c(f32, row) acc(f32)\n"
                        "    config("));
  // A stage of 128-byte rows, as for bf16 128x256x64: 4 stages.
  EXPECT_EQ(
      parsed("sm90_s8_cs32_128x256x128_coop_c1x1_rm_s8_st0").derivedStages(),
      4u);
  // Block-wise fp8 stages 512 bytes of A scales with each 32 KB stage of
  // 128x128x128: 5 stages where per-tensor takes 6.
  EXPECT_EQ(parsed("sm90_e4m3_cbf16_qtt_128x128x128_coop_c1x1_rm_s8_st0")
                .derivedStages(),
            6u);
  EXPECT_EQ(parsed("sm90_e4m3_cbf16_qbb_128x128x128_coop_c1x1_rm_s8_st0")
                .derivedStages(),
            5u);
}

TEST(LowPrecisionTest, BuildableFollowsTheCompilersRules) {
  std::string why;
  // Promoted fp8: twice the accumulator, at most 192 registers.
  EXPECT_TRUE(parsed("sm90_e4m3_cbf16_qtt_128x192x128_coop_c1x1_rm_s8_st0")
                  .buildable());
  EXPECT_FALSE(parsed("sm90_e4m3_cbf16_qtt_128x256x128_coop_c1x1_rm_s8_st0")
                   .buildable(&why));
  EXPECT_THAT(why, HasSubstr("256 accumulator registers per consumer thread, "
                             "more than 192 (promoted fp8: the partial sums "
                             "beside the f32 accumulator)"));
  // Three consumers (96 registers) compute a 192x128 tile's partial sums in
  // two 64-column slices: 64 + 32. Not with a longer promotion interval
  // (slices wait for their MMAs every k-block), nor past 128 columns.
  for (const char *name :
       {"sm90_e4m3_cbf16_qtt_192x128x128_coop_c1x1_rm_s8_st0",
        "sm90_e4m3_cbf16_qbb_192x128x128_coop_c1x1_rm_s8_st0",
        "sm90_e4m3_ce4m3_qtt_192x128x128_coop_c1x1_rm_s8_st0"})
    EXPECT_TRUE(parsed(name).buildable(&why)) << why;
  constexpr gemm::bundle::AccumulatorPlan tall =
      gemm::bundle::accumulatorPlan(64, 128, 3, /*promoted=*/true, 1);
  static_assert(tall.promoteSlices == 2 && tall.registers == 96);
  static_assert(
      gemm::bundle::accumulatorPlan(64, 64, 3, true, 1).promoteSlices == 1);
  // Two consumers keep whole tiles (their slices ran slower than 128x192).
  static_assert(!gemm::bundle::accumulatorPlan(64, 256, 2, true, 1).fits());
  EXPECT_FALSE(parsed("sm90_e4m3_cbf16_qtt4_192x128x128_coop_c1x1_rm_s8_st0")
                   .buildable(&why));
  EXPECT_THAT(why, HasSubstr("128 accumulator registers per consumer thread, "
                             "more than 96 (promoted fp8"));
  EXPECT_FALSE(parsed("sm90_e4m3_cbf16_qtt_192x192x128_coop_c1x1_rm_s8_st0")
                   .buildable(&why));
  EXPECT_THAT(why, HasSubstr("192 accumulator registers"));
  EXPECT_TRUE(parsed("sm90_e4m3_cbf16_qttf_128x256x128_coop_c1x1_rm_s8_st0")
                  .buildable());
  // Block-wise B scales cover 128 columns: a tile of them, or of 64-column
  // groups each inside one block.
  EXPECT_TRUE(parsed("sm90_e4m3_cbf16_qbb_128x192x128_coop_c1x1_rm_s8_st0")
                  .buildable());
  EXPECT_FALSE(parsed("sm90_e4m3_cf32_qbb_128x96x128_coop_c1x1_rm_s8_st0")
                   .buildable(&why));
  EXPECT_THAT(why, HasSubstr("block-wise scales need tile N to divide 128 "
                             "or be a multiple of 64"));
  // fp8 outputs stage 128 columns per sub-tile.
  EXPECT_FALSE(parsed("sm90_e4m3_ce4m3_qtt_128x64x128_coop_c1x1_rm_s8_st0")
                   .buildable(&why));
  EXPECT_THAT(why, HasSubstr("128-column epilogue sub-tile"));
  // 8-bit integer WGMMA N.
  KernelConfig n40 = parsed("sm90_s8_cs32_128x256x128_coop_c1x1_rm_s8_st0");
  n40.tileN = 40;
  EXPECT_FALSE(n40.buildable(&why));
  EXPECT_THAT(why, HasSubstr("N of 8, 16, 24 or a multiple of 16"));
}

TEST(LowPrecisionTest, TheModelPicksAmongBuildableTiles) {
  const DispatchModel &model = h200Model();
  Target h200;
  // The model's candidates at the type's BK, of the tiles the compiler
  // builds, by the physics at the type's MMA rate.
  for (const Problem &p :
       {lowp(4096, 4096, 4096, DType::E4M3, DType::BF16, "tt"),
        lowp(8192, 8192, 8192, DType::E4M3, DType::BF16, "bb"),
        lowp(128, 8192, 8192, DType::E4M3, DType::BF16, "rc"),
        lowp(4096, 4096, 4096, DType::S8),
        lowp(4096, 4096, 4096, DType::S8, DType::BF16, "rc", DType::U8),
        lowp(4096, 4096, 4096, DType::F32),
        lowp(2048, 28672, 8192, DType::E4M3, DType::E4M3, "tt")}) {
    Selection s = select(p, model, h200);
    EXPECT_EQ(s.source, Source::Model) << p.toString();
    EXPECT_TRUE(s.config.buildable()) << s.config.name();
    EXPECT_EQ(s.config.inType, p.inType);
    EXPECT_EQ(s.config.quant, p.quant);
    EXPECT_EQ(s.config.tileK, KernelConfig::tileKFor(p.inType));
  }
  EXPECT_EQ(
      select(lowp(4096, 4096, 4096, DType::S8), model, h200).config.name(),
      "sm90_s8_cs32_128x256x128_coop_c1x1_rm_s8_st0");
  // Promoted fp8 cannot take 128x256 tiles; fast accumulation can.
  EXPECT_EQ(select(lowp(4096, 4096, 4096, DType::E4M3, DType::BF16, "ttf"),
                   model, h200)
                .config.tileN,
            256u);
  EXPECT_LE(select(lowp(4096, 4096, 4096, DType::E4M3, DType::BF16, "tt"),
                   model, h200)
                .config.tileN,
            192u);
}

TEST(LowPrecisionTest, BadProblemsAreRefused) {
  auto message = [](const Problem &p) -> std::string {
    try {
      select(p, h200Model(), {});
    } catch (const DispatchError &e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_THAT(message(lowp(64, 64, 64, DType::E4M3, DType::S32)),
              HasSubstr("the output of e4m3 inputs is bf16, f16 or f32, or "
                        "e4m3/e5m2"));
  EXPECT_THAT(message(lowp(64, 64, 64, DType::BF16, std::nullopt, "tt")),
              HasSubstr("scales apply to fp8 and 8-bit integer inputs"));
  EXPECT_THAT(message(lowp(64, 64, 64, DType::S8, DType::BF16, "bb")),
              HasSubstr("8-bit integers accumulate exactly"));
  EXPECT_THAT(message(lowp(64, 64, 64, DType::S8, DType::S32, "rc")),
              HasSubstr("an s32 output has no scales"));
  EXPECT_THAT(message(lowp(64, 64, 64, DType::E4M3, DType::BF16, "bt")),
              HasSubstr("block-wise scales go together"));
}

TEST(LowPrecisionTest, TheLibraryShipsBuildableKernels) {
  std::vector<KernelConfig> set = lowPrecisionLibrarySet(h200Model());
  EXPECT_GE(set.size(), 20u);
  for (const KernelConfig &config : set)
    EXPECT_TRUE(config.buildable()) << config.name();
  // The model's picks of the library's problems at the usual sizes are in
  // it, so the package needs no compiler for them.
  for (Problem p : libraryLowPrecisionProblems()) {
    p.m = p.n = p.k = 4096;
    KernelConfig pick = select(p, h200Model(), {}).config;
    EXPECT_NE(std::find(set.begin(), set.end(), pick), set.end())
        << pick.name();
  }
}

TEST(LowPrecisionTest, TinyProblemsRunOnTheSmallestAvailableTile) {
  // A library whose smallest low-precision tiles are 64x128 and 128x64 (the
  // library's 64x64 ones left out): 1x1x1 and 8x16x32 are smaller than half
  // of every tile, and no direct kernel takes fp8, int8 or tf32. The
  // dispatcher then falls back to whole tiles past the problem (TMA
  // zero-fills, the store clips, staging realigns rows) instead of
  // refusing the problem.
  std::vector<KernelConfig> library;
  for (const KernelConfig &config : lowPrecisionLibrarySet(h200Model()))
    if (config.tileM * config.tileN > 64 * 64)
      library.push_back(config);
  for (Problem p : libraryLowPrecisionProblems()) {
    for (auto [m, n, k] : {std::tuple<uint64_t, uint64_t, uint64_t>{1, 1, 1},
                           {8, 16, 32},
                           {1, 1, 1000}}) {
      p.m = m;
      p.n = n;
      p.k = k;
      Selection s;
      ASSERT_NO_THROW(s = select(p, h200Model(), {}, &library)) << p.toString();
      EXPECT_NE(std::find(library.begin(), library.end(), s.config),
                library.end())
          << s.config.name();
      EXPECT_EQ(s.config.inType, p.inType);
      EXPECT_EQ(s.config.quant, p.quant);
      EXPECT_FALSE(s.config.direct());
      EXPECT_EQ(s.source, Source::ModelAmongAvailable);
      EXPECT_THAT(s.reason, HasSubstr("a larger whole tile computes it"));
      EXPECT_FALSE(isApplicable(s.config, p, {}));
      EXPECT_TRUE(isApplicable(s.config, p, {}, /*oversized=*/true));
      // Whole tiles only: the rules other than the tile size still hold.
      EXPECT_EQ(s.config.splits, 1u);
      EXPECT_FALSE(s.config.streamK);
    }
  }
  // A problem that some tile fits keeps the usual rule (no fallback note).
  Problem big = lowp(4096, 4096, 4096, DType::S8);
  EXPECT_THAT(select(big, h200Model(), {}, &library).reason,
              Not(HasSubstr("a larger whole tile")));
  // No kernel of the problem's types at all is still an error.
  std::vector<KernelConfig> fp8Only;
  for (const KernelConfig &config : library)
    if (config.inType == DType::E4M3)
      fp8Only.push_back(config);
  EXPECT_THROW(select(lowp(1, 1, 1, DType::S8), h200Model(), {}, &fp8Only),
               DispatchError);
}

TEST(LowPrecisionTest, TheDirectKernelIsNeverOfferedForLowPrecision) {
  DispatchModel model =
      DispatchModel::parse(test::directModel(), "direct.json");
  std::string why;
  // The direct kernel is built for bf16 and f16 only.
  KernelConfig fp8 =
      parsed("sm90_e4m3_cbf16_qtt_64x64x128_direct_c1x1_rm_s8_st0");
  EXPECT_TRUE(fp8.direct());
  EXPECT_FALSE(fp8.buildable(&why));
  EXPECT_THAT(why, HasSubstr("the direct kernel (schedule = direct) takes "
                             "bf16 and f16 inputs without scales"));
  EXPECT_FALSE(
      parsed("sm90_s8_cs32_64x64x128_direct_c1x1_rm_s8_st0").buildable());
  EXPECT_FALSE(parsed("sm90_f32_64x64x32_direct_c1x1_rm_s8_st0").buildable());
  EXPECT_TRUE(parsed("sm90_bf16_64x64x64_direct_c1x1_rm_s8_st0").buildable());
  // Small odd problems whose TMA kernels would stage every matrix: a bf16
  // one takes the direct kernel, low-precision ones never do.
  Problem bf16 = lowp(44, 206, 46, DType::BF16);
  bf16.staged = {true, true, true};
  EXPECT_TRUE(select(bf16, model, {}).config.direct());
  for (Problem p :
       {lowp(44, 206, 46, DType::E4M3, DType::BF16, "tt"),
        lowp(44, 206, 46, DType::S8), lowp(44, 206, 46, DType::F32)}) {
    p.staged = {true, true, true};
    KernelConfig typed = fp8;
    typed.inType = p.inType;
    typed.outType = p.outType;
    typed.quant = p.quant;
    typed.tileK = KernelConfig::tileKFor(p.inType);
    EXPECT_FALSE(isApplicable(typed, p, {})) << p.toString();
    Selection s = select(p, model, {});
    EXPECT_FALSE(s.config.direct()) << s.config.name();
    EXPECT_EQ(s.config.inType, p.inType);
    // Not even when it is the only kernel available.
    std::vector<KernelConfig> only = {typed};
    EXPECT_THROW(select(p, model, {}, &only), DispatchError) << p.toString();
  }
}

/// H200Model with a "lowp" section (residuals of low-precision kernels
/// measured under their names).
std::string withLowPrecisionResiduals(const std::string &section) {
  std::string text = H200Model;
  text.insert(text.rfind('}'), ", \"lowp\": " + section);
  return text;
}

TEST(LowPrecisionTest, LowPrecisionKernelsTakeTheResidualsOfTheirName) {
  const char *slow = "sm90_e4m3_cbf16_qtt_128x128x128_coop_c1x1_rm_s8_st0";
  const char *fast = "sm90_e4m3_cbf16_qtt_128x192x128_coop_c1x1_rm_s8_st0";
  DispatchModel model = DispatchModel::parse(
      withLowPrecisionResiduals(
          std::string(R"({"source": "test", "candidates": {")") + slow +
          R"(": [[4096, 4096, 4096, 1.0]], ")" + fast +
          R"(": [[4096, 4096, 4096, -1.0]]}})"),
      "lowp.json");
  Target h200;
  Problem p = lowp(4096, 4096, 4096, DType::E4M3, DType::BF16, "tt");
  Estimate s = model.estimate(parsed(slow), p, h200);
  Estimate f = model.estimate(parsed(fast), p, h200);
  // At a measured shape: the residual shrunk by the prior (weight 0.5).
  EXPECT_NEAR(s.correction, std::exp(1.0 / 1.5), 1e-6);
  EXPECT_NEAR(f.correction, std::exp(-1.0 / 1.5), 1e-6);
  EXPECT_NEAR(s.seconds, s.physicsSeconds * s.correction, 1e-12);
  // The physics alone picks 128x128; the measurements pick 128x192.
  EXPECT_EQ(select(p, h200Model(), h200).config.name(), slow);
  EXPECT_EQ(select(p, model, h200).config.name(), fast);
  // Another scale mode of the same tile, and the 16-bit tile, are not the
  // measured kernel: the physics alone, as without the section.
  Problem rc = lowp(4096, 4096, 4096, DType::E4M3, DType::BF16, "rc");
  EXPECT_EQ(model
                .estimate(parsed("sm90_e4m3_cbf16_qrc_128x192x128_coop_c1x1_"
                                 "rm_s8_st0"),
                          rc, h200)
                .correction,
            1.0);
  EXPECT_EQ(model
                .estimate(parsed("sm90_bf16_128x192x64_coop_c1x1_rm_s8_st0"),
                          lowp(4096, 4096, 4096, DType::BF16), h200)
                .correction,
            1.0);
}

TEST(LowPrecisionTest, TheLowPrecisionSectionsCorrectionIsItsOwn) {
  // The section's own bandwidth and prior weight (fitted on its
  // measurements), not the file's, correct its kernels.
  const char *name = "sm90_e4m3_cbf16_qtt_128x128x128_coop_c1x1_rm_s8_st0";
  DispatchModel model = DispatchModel::parse(
      withLowPrecisionResiduals(
          std::string(R"({"source": "test", )") +
          R"("correction": {"bandwidth": 0.4, "prior_weight": 0.1}, )" +
          R"("candidates": {")" + name + R"(": [[4096, 4096, 4096, 1.0]]}})"),
      "lowp.json");
  auto correctionAt = [&](uint64_t m) {
    return model
        .estimate(parsed(name),
                  lowp(m, 4096, 4096, DType::E4M3, DType::BF16, "tt"), Target{})
        .correction;
  };
  // A measured shape: weight 1 against the section's prior of 0.1.
  EXPECT_NEAR(correctionAt(4096), std::exp(1.0 / 1.1), 1e-6);
  // Twice as large along M: a log distance of ln 2, at the section's width.
  double w = std::exp(-std::log(2.0) * std::log(2.0) / (2 * 0.4 * 0.4));
  EXPECT_NEAR(correctionAt(8192), std::exp(w / (w + 0.1)), 1e-6);
  auto refused = [](const std::string &correction) {
    try {
      DispatchModel::parse(
          withLowPrecisionResiduals(R"({"source": "t", "correction": )" +
                                    correction + R"(, "candidates": {}})"),
          "lowp.json");
    } catch (const DispatchError &e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_THAT(refused(R"({"bandwidth": 0.4, "prior_weight": 0})"),
              HasSubstr("lowp.correction: bandwidth and prior_weight must be "
                        "positive"));
  EXPECT_THAT(refused(R"({"bandwidth": 0.4})"), HasSubstr("lowp.correction"));
}

TEST(LowPrecisionTest, AMeasuredClassOffersItsMeasuredKernelsOnly) {
  // Per-tensor fp8 kernels measured: 128x128 and 64x128.
  DispatchModel model = DispatchModel::parse(
      withLowPrecisionResiduals(
          R"({"source": "test", "candidates": {)"
          R"("sm90_e4m3_cbf16_qtt_128x128x128_coop_c1x1_rm_s8_st0": [],)"
          R"("sm90_e4m3_cbf16_qtt_64x128x128_pingpong_c1x1_rm_s8_st0": []}})"),
      "lowp.json");
  Target h200;
  // At 8192 cubed the physics alone takes the (unmeasured) 128x192 tile;
  // the measured class only offers its two kernels.
  Problem big = lowp(8192, 8192, 8192, DType::E4M3, DType::BF16, "tt");
  EXPECT_EQ(select(big, h200Model(), h200).config.tileN, 192u);
  EXPECT_EQ(select(big, model, h200).config.name(),
            "sm90_e4m3_cbf16_qtt_128x128x128_coop_c1x1_rm_s8_st0");
  EXPECT_FALSE(model.offers(
      parsed("sm90_e4m3_cbf16_qtt_128x192x128_coop_c1x1_rm_s8_st0")));
  EXPECT_TRUE(model.offers(
      parsed("sm90_e4m3_cbf16_qtt_64x128x128_pingpong_c1x1_rm_s8_st0")));
  // Where none of the measured kernels applies, the others are considered:
  // a problem is never left without a kernel.
  DispatchModel wideOnly = DispatchModel::parse(
      withLowPrecisionResiduals(
          R"({"source": "test", "candidates": {)"
          R"("sm90_e4m3_cbf16_qtt_128x192x128_coop_c1x1_rm_s8_st0": []}})"),
      "lowp.json");
  EXPECT_EQ(select(lowp(16, 8192, 8192, DType::E4M3, DType::BF16, "tt"),
                   wideOnly, h200)
                .config.tileM,
            64u);
  // Classes it measured nothing of (other scales, fast accumulation, an
  // fp8 output, bf16) choose among all their tiles, as before.
  for (const char *name :
       {"sm90_e4m3_cbf16_qrc_64x128x128_pingpong_c1x1_rm_s8_st0",
        "sm90_e4m3_cbf16_qttf_64x128x128_pingpong_c1x1_rm_s8_st0",
        "sm90_e4m3_ce4m3_qtt_64x128x128_pingpong_c1x1_rm_s8_st0",
        "sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0"})
    EXPECT_TRUE(model.offers(parsed(name))) << name;
  EXPECT_EQ(select(lowp(8192, 8192, 8192, DType::E4M3, DType::BF16, "rc"),
                   model, h200)
                .config.tileN,
            192u);
}

TEST(LowPrecisionTest, TheLibraryHoldsEveryMeasuredKernel) {
  // A measured kernel no shipped tile or pick at the usual sizes brings in
  // (64x64, split in 4): the dispatcher chooses among measured kernels, so
  // the library holds them all (of its problems' types and scales only).
  const char *measured =
      "sm90_e4m3_cbf16_qtt_64x64x128_pingpong_c1x1_rm_s8_st0_k4";
  const char *otherProblem =
      "sm90_e4m3_cbf16_qttf_64x64x128_pingpong_c1x1_rm_s8_st0";
  DispatchModel model = DispatchModel::parse(
      withLowPrecisionResiduals(
          std::string(R"({"source": "t", "candidates": {")") + measured +
          R"(": [], ")" + otherProblem + R"(": []}})"),
      "lowp.json");
  auto has = [](const std::vector<KernelConfig> &set, const char *name) {
    return std::find(set.begin(), set.end(), parsed(name)) != set.end();
  };
  EXPECT_FALSE(has(lowPrecisionLibrarySet(h200Model()), measured));
  std::vector<KernelConfig> set = lowPrecisionLibrarySet(model);
  EXPECT_TRUE(has(set, measured));
  EXPECT_FALSE(has(set, otherProblem));
}

/// A model whose candidates are row-major 64x64 and 64x128 tiles (an fp8 C
/// takes the wider one) and a 64x16 tile of transposed problems (the
/// problem's M along its N), with a "lowp" section
/// of `measured` (kernel names, each measured at 8192 x 16 x 8192 or
/// 16 x 8192 x 8192 with no residual).
DispatchModel transposedNarrowModel(const std::vector<std::string> &measured) {
  std::string lowp;
  for (const std::string &name : measured)
    lowp +=
        std::string(lowp.empty() ? "" : ", ") + "\"" + name + "\": [[" +
        (name.find("_akbkcc_") != std::string::npos ? "8192, 16" : "16, 8192") +
        ", 8192, 0.0]]";
  std::string text =
      test::testModel(1,
                      R"("64x64_pingpong": 0.8, "64x16_pingpong": 0.6,
         "64x128_pingpong": 0.8)",
                      R"("64x64x64_pingpong_c1x1_rm_s8_st0": [],
         "64x128x64_pingpong_c1x1_rm_s8_st0": [],
         "akbkcc_64x16x64_pingpong_c1x1_rm_s8_st0": [])");
  if (!lowp.empty())
    text.insert(text.rfind('}'),
                R"(, "lowp": {"source": "t", "candidates": {)" + lowp + "}}");
  return DispatchModel::parse(text, "narrow.json");
}

TEST(LowPrecisionTest, MeasuredKernelsOfTransposedProblemsRunLowPrecision) {
  const std::string rowMajor =
      "sm90_e4m3_cbf16_qtt_64x64x128_pingpong_c1x1_rm_s8_st0";
  const std::string transposedTile =
      "sm90_e4m3_cbf16_qtt_akbkcc_64x16x128_pingpong_c1x1_rm_s8_st0";
  // 16 x 8192 x 8192: a 64-row tile loads 48 padding rows of A (M along the
  // tile's N: a 16-wide tile loads none), so the physics prefers the
  // transposed problem C^T = B A^T.
  Problem p = lowp(16, 8192, 8192, DType::E4M3, DType::BF16, "tt");
  Selection measured =
      select(p, transposedNarrowModel({rowMajor, transposedTile}), {});
  EXPECT_TRUE(measured.transposed);
  EXPECT_EQ(measured.config.name(), transposedTile);
  EXPECT_THAT(measured.reason, HasSubstr("as the transposed problem"));
  // Unmeasured, the transposed tile's physics would be set against measured
  // residuals of the row-major ones: it is not offered.
  Selection unmeasured = select(p, transposedNarrowModel({rowMajor}), {});
  EXPECT_FALSE(unmeasured.transposed);
  EXPECT_EQ(unmeasured.config.name(), rowMajor);
  EXPECT_FALSE(select(p, transposedNarrowModel({}), {}).transposed);
  // Row scales of A and column scales of B are the transposed problem's
  // column scales of B and row scales of A: measured under "qrc" too.
  Problem rc = lowp(16, 8192, 8192, DType::E4M3, DType::BF16, "rc");
  Selection rcPick = select(
      rc,
      transposedNarrowModel({transposedTile,
                             "sm90_e4m3_cbf16_qrc_akbkcc_64x16x128_pingpong_"
                             "c1x1_rm_s8_st0"}),
      {});
  EXPECT_TRUE(rcPick.transposed);
  EXPECT_EQ(rcPick.config.quant, rc.quant);
  // Block scales have no transposed form.
  Problem block = lowp(16, 8192, 8192, DType::E4M3, DType::BF16, "bb");
  EXPECT_FALSE(
      select(block, transposedNarrowModel({rowMajor, transposedTile}), {})
          .transposed);

  // The library holds the measured kernels of its problems' transposed
  // problems (select() runs them), and no unmeasured ones (select() does
  // not).
  auto transposedNames = [](const DispatchModel &model) {
    std::vector<std::string> names;
    for (const KernelConfig &config : lowPrecisionLibrarySet(model))
      if (config.layouts.c == Layout::Col)
        names.push_back(config.name());
    return names;
  };
  EXPECT_THAT(transposedNames(transposedNarrowModel({rowMajor})),
              ::testing::IsEmpty());
  const std::string int8Tile =
      "sm90_s8_cs32_akbkcc_64x16x128_pingpong_c1x1_rm_s8_st0";
  EXPECT_THAT(
      transposedNames(transposedNarrowModel({transposedTile, int8Tile})),
      ::testing::UnorderedElementsAre(transposedTile, int8Tile));
}

TEST(LowPrecisionTest, BadLowPrecisionSectionsAreRefused) {
  auto message = [](const std::string &section) -> std::string {
    try {
      DispatchModel::parse(withLowPrecisionResiduals(section), "lowp.json");
    } catch (const DispatchError &e) {
      return e.what();
    }
    return "";
  };
  EXPECT_THAT(
      message(R"({"source": "t", "candidates": {"sm90_bf16_128x128x64_coop_)"
              R"(c1x1_rm_s8_st0": []}})"),
      HasSubstr("lowp.candidates.sm90_bf16_128x128x64_coop_c1x1_rm_s8_st0: "
                "not a low-precision (fp8, int8 or tf32) kernel"));
  EXPECT_THAT(
      message(R"({"source": "t", "candidates": {"sm90_e4m3_cbf16_)"
              R"(qtt_128x128x128_coop_c1x1_rm_s8_st0": [[0, 1, 1, 0]]}})"),
      HasSubstr("expected [m, n, k, log ratio] points of positive "
                "sizes"));
  EXPECT_THAT(message(R"({"source": "t", "candidates": {"nonsense": []}})"),
              HasSubstr("lowp.candidates.nonsense"));
  EXPECT_THAT(message(R"({"source": "t"})"), HasSubstr("malformed model file"));
}

} // namespace
