//===- QuantTest.cpp - low-precision manifests, plans and tolerances ------===//
//
// The scale and amax parameters of fp8 and int8 kernels: how the manifest
// spells and validates them, the shapes the runtime plans for them, and the
// tolerances the runner derives (docs/LowPrecision.md).
//
//===----------------------------------------------------------------------===//

#include "PlanFixtures.h"

#include "gemm/Bundle/Manifest.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/Runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using namespace gemm::bundle;
using namespace gemm::runtime;
using namespace gemm::runtime::plan_fixtures;
using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

/// An SM90 fp8 kernel of 128x128x128 tiles with the given input scales, an
/// fp8 output (output scale and amax) when `fp8Out`.
KernelManifest fp8Manifest(std::optional<ScaleGranularity> a,
                           std::optional<ScaleGranularity> b,
                           bool fp8Out = false) {
  KernelManifest m = manifest();
  m.tile = {128, 128, 128};
  m.types.a = m.types.b = DType::E4M3;
  m.types.c = fp8Out ? DType::E4M3 : DType::BF16;
  m.types.fp8Accumulation = Fp8Accumulation::Promoted;
  m.types.promoteEveryK = 128;
  m.params[0].tma.box = {128, 128};
  m.params[1].tma.box = {128, 128};
  m.params[2].tma.box = {fp8Out ? 128u : 64u, 64};
  if (a)
    m.params.push_back(Param::scaleFactors({Tensor::A, *a}));
  if (b)
    m.params.push_back(Param::scaleFactors({Tensor::B, *b}));
  if (fp8Out) {
    m.params.push_back(
        Param::scaleFactors({Tensor::C, ScaleGranularity::Tensor}));
    m.params.push_back(Param::amaxOutput());
  }
  return m;
}

TEST(Quant, Spellings) {
  EXPECT_EQ(toString(DType::S8), "s8");
  EXPECT_EQ(toString(DType::U8), "u8");
  EXPECT_EQ(toString(DType::S32), "s32");
  EXPECT_EQ(elementBytes(DType::S8), 1u);
  EXPECT_EQ(elementBytes(DType::S32), 4u);
  EXPECT_EQ(toString(ParamKind::Scale), "scale");
  EXPECT_EQ(toString(ScaleGranularity::Block), "block");
  EXPECT_EQ(parseEnum<Fp8Accumulation>("fast"), Fp8Accumulation::Fast);
}

TEST(Quant, ScaleParamsRoundTrip) {
  for (bool fp8Out : {false, true}) {
    KernelManifest m =
        fp8Manifest(ScaleGranularity::Block, ScaleGranularity::Block, fp8Out);
    EXPECT_TRUE(m.validate().empty()) << ::testing::PrintToString(m.validate());
    std::string text = m.toJsonString();
    EXPECT_THAT(text, HasSubstr("\"kind\": \"scale\""));
    EXPECT_THAT(text, HasSubstr("\"granularity\": \"block\""));
    EXPECT_THAT(text, HasSubstr("\"promote_every_k\": 128"));
    ParseResult parsed = parseManifestText(text);
    ASSERT_TRUE(parsed.manifest) << ::testing::PrintToString(parsed.errors);
    EXPECT_EQ(*parsed.manifest, m);
    EXPECT_EQ(parsed.manifest->hasAmax(), fp8Out);
    ASSERT_TRUE(parsed.manifest->scaleFor(Tensor::B));
    EXPECT_EQ(parsed.manifest->scaleFor(Tensor::B)->granularity,
              ScaleGranularity::Block);
  }
}

TEST(Quant, BadScaleFieldsAreNamed) {
  json j = json::parse(
      fp8Manifest(ScaleGranularity::Tensor, std::nullopt).toJsonString());
  j["params"][6]["granularity"] = "blocks";
  j["params"][6]["shape"] = 3;
  j["types"]["fp8_accumulation"]["mode"] = "slow";
  ParseResult result = parseManifest(j);
  EXPECT_FALSE(result.manifest);
  EXPECT_THAT(
      result.errors,
      ::testing::UnorderedElementsAre(
          HasSubstr("params[6].shape: unknown field"),
          "params[6].granularity: unknown scale granularity 'blocks' "
          "(expected one of tensor, row, col, block)",
          "types.fp8_accumulation.mode: unknown fp8 accumulation 'slow' "
          "(expected one of promoted, fast)"));
}

TEST(Quant, ValidateScales) {
  // A per-column scale of A, half of a block-wise pair, a second scale of
  // B, an output scale for a bf16 output, an amax without an fp8 output.
  KernelManifest m =
      fp8Manifest(ScaleGranularity::Col, ScaleGranularity::Block);
  m.params.push_back(
      Param::scaleFactors({Tensor::B, ScaleGranularity::Tensor}));
  m.params.push_back(
      Param::scaleFactors({Tensor::C, ScaleGranularity::Tensor}));
  m.params.push_back(Param::amaxOutput());
  EXPECT_THAT(
      m.validate(),
      ElementsAre(
          "params[6]: a col scale for tensor a: A is scaled per tensor, row "
          "or block, B per tensor, column or block",
          "params[7]: a block scale for tensor b: block scales of A (1 x 128) "
          "go with block scales of B (128 x 128)",
          "params[8]: a second scale for tensor b (first at params[7])",
          "params[9]: a tensor scale for tensor c: output scales apply to fp8 "
          "outputs only, but c is bf16",
          "params[10]: an amax is written for fp8 outputs only, but c is "
          "bf16"));
}

TEST(Quant, ValidateTypes) {
  KernelManifest m = fp8Manifest(std::nullopt, std::nullopt, /*fp8Out=*/true);
  // An fp8 output without its output scale.
  m.params.erase(m.params.begin() + 6);
  EXPECT_THAT(m.validate(),
              ElementsAre("params: an e4m3 output needs an output scale (a "
                          "scale parameter for tensor c)"));

  KernelManifest ints = manifest();
  ints.tile = {128, 256, 128};
  ints.types = {DType::S8, DType::U8, DType::BF16, DType::F32};
  ints.params.push_back(
      Param::scaleFactors({Tensor::A, ScaleGranularity::Block}));
  EXPECT_THAT(ints.validate(),
              ElementsAre("types.accumulator: f32; 8-bit integer inputs "
                          "accumulate in s32",
                          "params[6]: a block scale for tensor a: block "
                          "scales apply to fp8 inputs"));
  ints.types.accumulator = DType::S32;
  ints.types.c = DType::S32;
  ints.params[2].tma.box = {32, 64};
  ints.params.back() = Param::scaleFactors({Tensor::A, ScaleGranularity::Row});
  EXPECT_THAT(ints.validate(),
              ElementsAre("params[6]: a row scale for tensor a: an s32 output "
                          "holds the raw accumulator, without scales"));
  ints.params.pop_back();
  EXPECT_TRUE(ints.validate().empty());

  KernelManifest bf16 = manifest();
  bf16.types.fp8Accumulation = Fp8Accumulation::Fast;
  bf16.params.push_back(
      Param::scaleFactors({Tensor::A, ScaleGranularity::Tensor}));
  EXPECT_THAT(bf16.validate(),
              ElementsAre("types.fp8_accumulation: only fp8 inputs have one, "
                          "but a is bf16",
                          "params[6]: a tensor scale for tensor a: scales "
                          "apply to fp8 and 8-bit integer inputs, not bf16"));
}

TEST(Quant, PlanScaleShapes) {
  // M = 300, N = 520, K = 1000: 8 k-blocks of 128 (the last partial), 5
  // block columns of B.
  KernelManifest m =
      fp8Manifest(ScaleGranularity::Block, ScaleGranularity::Block, true);
  LaunchPlan plan = planLaunch(m, problem(300, 520, 1000), options());
  ASSERT_EQ(plan.scales.size(), 4u);
  EXPECT_EQ(plan.scales[0].tensor, Tensor::A);
  EXPECT_EQ(plan.scales[0].rows, 8u);
  EXPECT_EQ(plan.scales[0].cols, 300u);
  EXPECT_EQ(plan.scales[1].rows, 5u);
  EXPECT_EQ(plan.scales[1].cols, 8u);
  EXPECT_EQ(plan.scales[2].tensor, Tensor::C);
  EXPECT_EQ(plan.scales[2].elements(), 1u);
  EXPECT_TRUE(plan.scales[3].amax);
  EXPECT_EQ(plan.scales[3].bytes(), 4u);
  ASSERT_EQ(plan.args.size(), 10u);
  EXPECT_EQ(plan.args[7].kind, ParamKind::Scale);
  EXPECT_EQ(plan.args[7].scaleIndex, 1u);
  EXPECT_EQ(plan.args[9].kind, ParamKind::Amax);
  std::string text = describePlan(plan);
  EXPECT_THAT(text, HasSubstr("params[6]: scale of a (block): 8 x 300 f32 "
                              "(9600 bytes)"));
  EXPECT_THAT(text, HasSubstr("params[9]: amax: 1 x 1 f32 (4 bytes), zeroed "
                              "before each launch"));

  LaunchPlan rows =
      planLaunch(fp8Manifest(ScaleGranularity::Row, ScaleGranularity::Col),
                 problem(300, 520, 1000), options());
  ASSERT_EQ(rows.scales.size(), 2u);
  EXPECT_EQ(rows.scales[0].rows, 300u);
  EXPECT_EQ(rows.scales[0].cols, 1u);
  EXPECT_EQ(rows.scales[1].rows, 1u);
  EXPECT_EQ(rows.scales[1].cols, 520u);
}

TEST(Quant, RunnerSupportsLowPrecisionOutputs) {
  KernelManifest m = fp8Manifest(std::nullopt, std::nullopt, true);
  EXPECT_NO_THROW(checkRunnerSupports(m));
  m.types.c = DType::S32;
  EXPECT_NO_THROW(checkRunnerSupports(m));
}

TEST(Quant, Tolerances) {
  TensorTypes bf16;
  EXPECT_DOUBLE_EQ(defaultTolerance(bf16), 1e-2);
  // fp8 promoted every 128: bf16 rounding plus 128 elements' accumulation
  // error, whatever K.
  TensorTypes fp8{DType::E4M3,
                  DType::E4M3,
                  DType::BF16,
                  DType::F32,
                  Fp8Accumulation::Promoted,
                  128};
  double promoted = defaultTolerance(fp8, 65536);
  EXPECT_NEAR(promoted, 1e-2 + 128 * 0x1p-14 / 6, 1e-12);
  EXPECT_EQ(promoted, defaultTolerance(fp8, 1024));
  // Fast accumulation: the error of all of K.
  fp8.fp8Accumulation = Fp8Accumulation::Fast;
  fp8.promoteEveryK = 0;
  EXPECT_NEAR(defaultTolerance(fp8, 65536), 1e-2 + 65536 * 0x1p-14 / 6, 1e-12);
  EXPECT_GT(defaultTolerance(fp8, 65536), 20 * promoted);
  // fp8 outputs: rounding to 4 (e4m3) or 3 (e5m2) significant bits.
  fp8.c = DType::E5M2;
  EXPECT_GT(defaultTolerance(fp8, 256), 0.125);
  // s32 outputs are exact; the f32 reference is not quite.
  TensorTypes ints{DType::S8, DType::S8, DType::S32, DType::S32};
  EXPECT_DOUBLE_EQ(defaultTolerance(ints, 4096), 1e-5);
  // tf32: truncated inputs.
  TensorTypes tf32{DType::F32, DType::F32, DType::F32, DType::F32};
  EXPECT_DOUBLE_EQ(defaultTolerance(tf32, 4096), 5e-3);
}

} // namespace
