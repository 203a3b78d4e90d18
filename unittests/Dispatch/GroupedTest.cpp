//===- GroupedTest.cpp - The dispatcher's grouped (MoE) problems ----------===//

#include "gemm/Dispatch/Dispatcher.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

using namespace gemm::dispatch;
using gemm::bundle::Layout;
using ::testing::HasSubstr;

namespace {

/// The grouped candidates' tiles, and split-K, stream-K and direct
/// candidates that a grouped problem must never get.
const char *Model = R"({
  "format": "gemm-dispatch-model", "version": 2,
  "gpu": {"name": "NVIDIA H200", "sm_count": 132},
  "hardware": {"launch_us": 9, "load_latency_us": 1.6, "l2_tbps": 12.5,
               "read_tbps": 4.2, "write_tbps": 3.0, "fixup_tbps": 6,
               "stream_k_fixed_us": 13, "stream_k_traffic": 1.03,
               "cluster_compute": 1.04, "stage_launch_us": 6,
               "stage_tbps": 4, "direct_launch_us": 10,
               "direct_kblock_us": 1.0, "direct_gloads_per_sm": 40},
  "tile_efficiency": {"128x256_coop": 0.88, "128x128_coop": 0.76,
                      "128x128_pingpong": 0.80, "64x256_pingpong": 0.68,
                      "128x192_coop": 0.87, "256x128_coop": 0.86,
                      "64x128_pingpong": 0.59, "64x64_pingpong": 0.7,
                      "64x64_direct": 0.9},
  "correction": {"bandwidth": 0.6, "prior_weight": 0.5},
  "candidates": {
    "128x256x64_coop_c1x1_rm_s8_st0": [[16384, 2048, 7168, -2.0]],
    "64x64x64_pingpong_c1x1_rm_s8_st0_k4": [[64, 2048, 16384, -3.0]],
    "128x128x64_pingpong_c1x1_rm_s8_st0_sk": [[16384, 2048, 7168, -3.0]],
    "64x64x64_direct_c1x1_rm_s8_st0": [[16, 16, 16, -3.0]]
  }
})";

const DispatchModel &model() {
  static const DispatchModel parsed = DispatchModel::parse(Model, "grouped");
  return parsed;
}

Problem grouped(uint64_t groups, uint64_t rows, uint64_t n, uint64_t k) {
  Problem p;
  p.groups = groups;
  p.m = rows;
  p.n = n;
  p.k = k;
  return p;
}

KernelConfig parsed(const std::string &name) {
  std::string error;
  auto config = KernelConfig::parse(name, error);
  EXPECT_TRUE(config) << error;
  return config.value_or(KernelConfig{});
}

TEST(GroupedTest, NamesAndOps) {
  KernelConfig c = parsed("sm90_bf16_grouped_128x256x64_coop_c1x2_rm_s8_st0");
  EXPECT_TRUE(c.grouped);
  EXPECT_FALSE(c.batched);
  EXPECT_EQ(c.clusterN, 2u);
  EXPECT_EQ(c.name(), "sm90_bf16_grouped_128x256x64_coop_c1x2_rm_s8_st0");
  EXPECT_THAT(c.mlir(), HasSubstr("acc(f32) grouped\n"));
  KernelConfig bn = parsed("sm90_f16_cf32_akbncr_grouped_64x256x64_pingpong_"
                           "c1x1_rm_s8_st0");
  EXPECT_TRUE(bn.grouped);
  EXPECT_EQ(bn.layouts.b, Layout::Row);
  EXPECT_EQ(bn.cType(), DType::F32);
  EXPECT_THAT(bn.mlir(), HasSubstr("a(f16, row) b(f16, row) c(f32, row) "
                                   "acc(f32) grouped"));
  EXPECT_TRUE(bn.buildable());
  EXPECT_FALSE(parsed("sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0").grouped);

  // What the compiler refuses for grouped kernels, buildable() refuses.
  std::string why;
  KernelConfig split = c;
  split.splits = 2;
  EXPECT_FALSE(split.buildable(&why));
  EXPECT_THAT(why, HasSubstr("whole tiles"));
  KernelConfig aCol = c;
  aCol.layouts.a = Layout::Col;
  EXPECT_FALSE(aCol.buildable(&why));
  KernelConfig fp8 = c;
  fp8.inType = DType::E4M3;
  fp8.tileK = 128;
  EXPECT_FALSE(fp8.buildable(&why));
  KernelConfig direct = parsed("sm90_bf16_grouped_64x64x64_direct_c1x1_rm_s8_"
                               "st0");
  EXPECT_FALSE(direct.buildable(&why));
  EXPECT_THAT(why, HasSubstr("no grouped form"));
}

TEST(GroupedTest, RowUnitsPerGroupWithRaggedLastTile) {
  KernelConfig coop =
      parsed("sm90_bf16_grouped_128x256x64_coop_c1x1_rm_s8_st0");
  KernelConfig c2x1 =
      parsed("sm90_bf16_grouped_128x256x64_coop_c2x1_rm_s8_st0");
  // 128 groups of 64 rows: a (ragged) 128-row tile each, twice the tiles of
  // the plain problem of 8192 rows.
  EXPECT_EQ(groupedRowUnits(coop, grouped(128, 8192, 768, 2048)), 128u);
  EXPECT_EQ(groupedRowUnits(coop, grouped(0, 8192, 768, 2048)), 64u);
  // 8 groups of about 2048 rows: 16 whole tiles and a ragged one each (a
  // router's sizes are rarely multiples of the tile).
  EXPECT_EQ(groupedRowUnits(coop, grouped(8, 16384, 14336, 4096)), 8u * 17);
  EXPECT_EQ(groupedRowUnits(coop, grouped(8, 16383, 14336, 4096)), 8u * 16);
  // Units of a 2x1 cluster are 256 rows.
  EXPECT_EQ(groupedRowUnits(c2x1, grouped(8, 16384, 14336, 4096)), 8u * 9);
  // 256 groups of about 512 rows: 5 units of 128 rows, 9 of 64.
  EXPECT_EQ(groupedRowUnits(coop, grouped(256, 131072, 2048, 7168)), 256u * 5);
  EXPECT_EQ(groupedRowUnits(
                parsed("sm90_bf16_grouped_64x256x64_pingpong_c1x1_rm_s8_st0"),
                grouped(256, 131072, 2048, 7168)),
            256u * 9);
  // Fewer rows than groups: at most one group per row has rows.
  EXPECT_EQ(groupedRowUnits(coop, grouped(64, 10, 256, 256)), 10u);

  // The estimate walks those tiles: 128 x 3 for 128 groups of 64 rows and
  // N 768, and reads each group's B.
  Estimate g = model().estimate(coop, grouped(128, 8192, 768, 2048), {});
  EXPECT_EQ(g.tiles, 128u * 3);
  KernelConfig plain = coop;
  plain.grouped = false;
  Estimate p = model().estimate(plain, grouped(0, 8192, 768, 2048), {});
  EXPECT_EQ(p.tiles, 64u * 3);
  EXPECT_GT(g.physicsSeconds, p.physicsSeconds);
  // The physics alone: the correction is learned on plain problems (the
  // model's -2.0 log ratio at this shape would make it 7x faster).
  Estimate big = model().estimate(coop, grouped(64, 16384, 2048, 7168), {});
  EXPECT_EQ(big.correction, 1.0);
  EXPECT_EQ(big.seconds, big.physicsSeconds);
  EXPECT_LT(
      model().estimate(plain, grouped(0, 16384, 2048, 7168), {}).correction,
      0.5);
}

TEST(GroupedTest, GroupedProblemsGetGroupedWholeTileKernels) {
  std::vector<KernelConfig> candidates = groupedCandidates(model());
  // The H200's grouped winners are candidates (the model has their tiles).
  for (const char *key :
       {"128x256x64_coop_c1x1_rm_s8_st0", "128x256x64_coop_c1x2_rm_s8_st0",
        "128x256x64_coop_c2x1_rm_s8_st0", "64x256x64_pingpong_c1x1_rm_s8_st0",
        "128x128x64_pingpong_c1x1_rm_s8_st0"}) {
    KernelConfig want = parsed(key);
    want.grouped = true;
    EXPECT_NE(std::find(candidates.begin(), candidates.end(), want),
              candidates.end())
        << key;
  }
  for (const KernelConfig &c : candidates) {
    EXPECT_TRUE(c.grouped) << c.name();
    EXPECT_EQ(c.splits, 1u) << c.name();
    EXPECT_FALSE(c.streamK) << c.name();
    EXPECT_FALSE(c.direct()) << c.name();
  }

  // Small and large MoE problems, both B layouts: always a grouped kernel of
  // the problem's layouts, never a split-K, stream-K or direct one, though
  // the model's corrections make those look fastest on plain problems.
  for (Layout b : {Layout::Col, Layout::Row})
    for (Problem p :
         {grouped(8, 16384, 14336, 4096), grouped(256, 131072, 2048, 7168),
          grouped(128, 131072, 768, 2048), grouped(4, 3, 64, 64),
          grouped(64, 2048, 2048, 16384)}) {
      p.layouts.b = b;
      Selection s = select(p, model(), {});
      EXPECT_TRUE(s.config.grouped) << p.toString();
      EXPECT_EQ(s.config.layouts.b, b) << p.toString();
      EXPECT_EQ(s.config.splits, 1u) << p.toString();
      EXPECT_FALSE(s.config.streamK) << p.toString();
      EXPECT_FALSE(s.config.direct()) << p.toString();
      EXPECT_THAT(s.config.name(), HasSubstr("grouped_")) << p.toString();
      EXPECT_THAT(p.toString(), HasSubstr("groups="));
    }
  // 64 rows a group: no tile twice as tall as a group (a 64-row one).
  EXPECT_EQ(select(grouped(128, 8192, 768, 2048), model(), {}).config.tileM,
            64u);

  // A plain problem never gets a grouped kernel, even from a library that
  // holds them.
  std::vector<KernelConfig> library =
      librarySet(model(), {DType::BF16}, libraryLayouts(), true);
  std::vector<KernelConfig> groupedSet =
      groupedLibrarySet(model(), {DType::BF16, DType::F16});
  EXPECT_EQ(groupedSet.size(), candidates.size() * 2 * 2);
  for (const KernelConfig &c : groupedSet) {
    EXPECT_TRUE(c.grouped && c.buildable()) << c.name();
    EXPECT_EQ(c.layouts.a, Layout::Row);
    EXPECT_EQ(c.layouts.c, Layout::Row);
  }
  std::vector<KernelConfig> plainOnly = library;
  library.insert(library.end(), groupedSet.begin(), groupedSet.end());
  Problem plain = grouped(0, 16384, 2048, 7168);
  EXPECT_FALSE(select(plain, model(), {}, &library).config.grouped);
  // A grouped one is picked among the library's grouped kernels, and a
  // library without them has none to give.
  Problem moe = grouped(64, 131072, 2048, 7168);
  moe.inType = DType::F16;
  Selection s = select(moe, model(), {}, &library);
  EXPECT_TRUE(s.config.grouped);
  EXPECT_EQ(s.config.inType, DType::F16);
  EXPECT_NE(std::find(groupedSet.begin(), groupedSet.end(), s.config),
            groupedSet.end());
  EXPECT_THROW(select(moe, model(), {}, &plainOnly), DispatchError);
}

TEST(GroupedTest, RefusedProblems) {
  auto refusal = [](Problem p) {
    try {
      select(p, model(), {});
    } catch (const DispatchError &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  Problem fp8 = grouped(8, 1024, 256, 256);
  fp8.inType = DType::E4M3;
  EXPECT_THAT(refusal(fp8), HasSubstr("grouped kernels take bf16 or f16"));
  Problem aCol = grouped(8, 1024, 256, 256);
  aCol.layouts.a = Layout::Col;
  EXPECT_THAT(refusal(aCol), HasSubstr("A and C row-major"));
  Problem cCol = grouped(8, 1024, 256, 256);
  cCol.layouts.c = Layout::Col;
  EXPECT_THAT(refusal(cCol), HasSubstr("A and C row-major"));
  Problem batch = grouped(8, 1024, 256, 256);
  batch.batch = 2;
  EXPECT_THAT(refusal(batch), HasSubstr("groups, not a batch"));
  Problem f32 = grouped(8, 1024, 256, 256);
  f32.outType = DType::F32;
  EXPECT_EQ(refusal(f32), "");
  EXPECT_EQ(select(f32, model(), {}).config.cType(), DType::F32);
}

} // namespace

namespace {

/// Model with a grouped section: two grouped kernels measured on grouped
/// problems; 64x256 pingpong measured 2x faster than its physics at 512
/// rows per group.
std::string withGroupedSection(const std::string &grouped) {
  std::string text = Model;
  size_t at = text.find("\"candidates\": {");
  return text.substr(0, at) + "\"grouped\": " + grouped + ",\n  " +
         text.substr(at);
}

TEST(GroupedTest, TheModelFilesGroupedKernelsAndResiduals) {
  DispatchModel model =
      DispatchModel::parse(withGroupedSection(
                               R"({"source": "test", "candidates": {
            "128x256x64_coop_c1x1_rm_s8_st0": [[512, 2048, 7168, 0.0]],
            "64x256x64_pingpong_c1x1_rm_s8_st0": [[512, 2048, 7168, -0.6931]]}})"),
                           "grouped-section");
  std::vector<KernelConfig> candidates = groupedCandidates(model);
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[1].name(),
            "sm90_bf16_grouped_64x256x64_pingpong_c1x1_rm_s8_st0");
  // At the measured shape the pingpong kernel's correction wins it the
  // problem (physics alone picks the 128x256 tile).
  Problem moe = grouped(256, 131072, 2048, 7168);
  EXPECT_EQ(select(moe, ::model(), {}).config.tileM, 128u);
  Selection s = select(moe, model, {});
  EXPECT_EQ(s.config.tileM, 64u);
  EXPECT_LT(s.estimate.correction, 0.8);
  EXPECT_GT(s.estimate.evidence, 0.9);
  // Rows per group, not total rows, place the problem: 2048 rows a group
  // is far from the measured 512 (little evidence).
  Estimate far =
      model.estimate(candidates[1], grouped(64, 131072, 2048, 7168), {});
  EXPECT_LT(far.evidence, 0.2);
  // The plain residuals never correct a grouped problem, nor the grouped
  // ones a plain problem.
  KernelConfig plain = candidates[1];
  plain.grouped = false;
  EXPECT_EQ(
      model.estimate(plain, grouped(0, 131072, 2048, 7168), {}).correction,
      1.0);

  // A grouped section listing a kernel that has no grouped form is refused.
  EXPECT_THROW(DispatchModel::parse(withGroupedSection(R"({"candidates": {
            "128x256x64_coop_c1x1_rm_s8_st0_k2": [[512, 2048, 7168, 0.0]]}})"),
                                    "bad"),
               DispatchError);
  EXPECT_THROW(DispatchModel::parse(withGroupedSection(R"({"candidates": {
            "128x256x64_coop_c1x1_rm_s8_st0": [[0, 2048, 7168, 0.0]]}})"),
                                    "bad"),
               DispatchError);
}

} // namespace
