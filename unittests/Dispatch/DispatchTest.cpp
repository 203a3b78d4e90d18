//===- DispatchTest.cpp - Kernel configurations and the dispatcher --------===//

#include "gemm/Dispatch/Dispatcher.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace gemm::dispatch;
using gemm::bundle::Arch;
using ::testing::HasSubstr;

namespace {

KernelConfig parsed(const std::string &name) {
  std::string error;
  auto config = KernelConfig::parse(name, error);
  EXPECT_TRUE(config) << error;
  return config.value_or(KernelConfig{});
}

Problem problem(uint64_t m, uint64_t n, uint64_t k, DType type = DType::BF16) {
  Problem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.inType = type;
  return p;
}

/// Two classes: M <= 64 with a tuned split-K kernel, and M >= 4097 with a
/// tuned kernel at a non-default order.
const char *SmallTable = R"({
  "format": "gemm-tuning-cache", "version": 1,
  "gpu": {"device": {"name": "NVIDIA H200"}},
  "classes": {
    "m1-64.n4097-16384.k4097-16384": {
      "bounds": {"m": [1, 64], "n": [4097, 16384], "k": [4097, 16384]},
      "best": {"config": "64x128x64_pingpong_c1x1_rm_s8_st0_k2",
               "median_ratio": 1.1}},
    "m4097+.n4097-16384.k4097-16384": {
      "bounds": {"m": [4097, null], "n": [4097, 16384], "k": [4097, 16384]},
      "best": {"config": "128x192x64_coop_c2x1_rn_s4_st0",
               "median_ratio": 1.05}},
    "m65-128.n1-4096.k1-4096": {
      "bounds": {"m": [65, 128], "n": [1, 4096], "k": [1, 4096]},
      "best": null}
  }
})";

TEST(KernelConfigTest, NamesRoundTrip) {
  for (const char *name : {"sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0",
                           "sm90_f16_64x128x64_pingpong_c1x1_rn_s16_st4",
                           "sm90_bf16_64x64x64_pingpong_c1x2_rm_s8_st0_k4",
                           "sm90_bf16_256x128x64_coop_c2x1_rn_s4_st0_sk",
                           "sm90_bf16_cf32_128x128x64_coop_c1x1_rm_s8_st0"})
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

// The model's picks, as the Python heuristic it replaces made them
// (gemm_bench.heuristic.pick before the dispatcher existed).
TEST(ModelTest, PicksAsTheFittedHeuristic) {
  struct Case {
    uint64_t m, n, k;
    DType type;
    const char *pick;
  } cases[] = {
      {1, 1, 1, DType::BF16, "sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0"},
      {16, 8192, 8192, DType::F16, "sm90_f16_64x64x64_pingpong_c1x1_rm_s8_st0"},
      {128, 28672, 8192, DType::BF16,
       "sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0"},
      {200, 8192, 8192, DType::BF16,
       "sm90_bf16_128x128x64_pingpong_c1x1_rm_s8_st0"},
      {1000, 1000, 1000, DType::BF16,
       "sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0"},
      {3072, 3072, 3072, DType::BF16,
       "sm90_bf16_128x192x64_coop_c1x1_rm_s8_st0"},
      {257, 8192, 8192, DType::BF16,
       "sm90_bf16_128x192x64_coop_c1x1_rm_s8_st0"},
      {4095, 4097, 4100, DType::BF16,
       "sm90_bf16_256x128x64_coop_c1x1_rm_s8_st0"},
      {8192, 8192, 8192, DType::BF16,
       "sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(modelPick(problem(c.m, c.n, c.k, c.type), Target{}).name(),
              c.pick)
        << c.m << "x" << c.n << "x" << c.k;
}

TEST(ModelTest, WavesFollowTheSmCount) {
  KernelConfig config = parsed("128x256x64_coop_c1x1_rm_s8_st0");
  Estimate h200 = estimate(config, problem(4096, 4096, 4096), Target{});
  EXPECT_EQ(h200.tiles, 512u);
  EXPECT_NEAR(h200.waves, 512.0 / 132, 1e-9);
  EXPECT_FALSE(h200.memoryBound());
  Estimate half =
      estimate(config, problem(4096, 4096, 4096), Target{Arch::Sm90a, 66});
  EXPECT_GT(half.computeSeconds, 1.9 * h200.computeSeconds);
}

TEST(SelectTest, TunedClassThenModel) {
  TuningTable table = TuningTable::parse(SmallTable, "small.json");
  EXPECT_EQ(table.classes().size(), 2u);
  EXPECT_EQ(table.gpuName(), "NVIDIA H200");

  Selection tuned = select(problem(16, 8192, 8192, DType::F16), &table, {});
  EXPECT_EQ(tuned.source, Source::Tuned);
  EXPECT_EQ(tuned.config.name(),
            "sm90_f16_64x128x64_pingpong_c1x1_rm_s8_st0_k2");
  EXPECT_EQ(tuned.tunedClass, "m1-64.n4097-16384.k4097-16384");
  EXPECT_THAT(tuned.reason, HasSubstr("searched best (1.100x cuBLAS"));

  // A class without a best is no class: the model decides.
  Selection model = select(problem(100, 100, 100), &table, {});
  EXPECT_EQ(model.source, Source::Model);
  EXPECT_THAT(model.reason, HasSubstr("no tuned class holds this shape"));
  EXPECT_EQ(model.config, modelPick(problem(100, 100, 100), {}));
}

TEST(SelectTest, LibraryFallsBackInOrder) {
  TuningTable table = TuningTable::parse(SmallTable, "small.json");
  Problem big = problem(8192, 8192, 8192);
  KernelConfig plain = parsed("sm90_bf16_128x192x64_coop_c2x1_rm_s8_st0");
  KernelConfig model = modelPick(big, {});
  KernelConfig other = parsed("sm90_bf16_128x128x64_coop_c1x1_rm_s8_st0");

  std::vector<KernelConfig> library = {plain, model, other};
  Selection s = select(big, &table, {}, &library);
  EXPECT_EQ(s.source, Source::TunedDefaultOrder);
  EXPECT_EQ(s.config, plain);
  EXPECT_THAT(s.reason, HasSubstr("rn_s4_st0 is not available"));

  library = {model, other};
  s = select(big, &table, {}, &library);
  EXPECT_EQ(s.source, Source::Model);
  EXPECT_THAT(s.reason, HasSubstr("the tuned kernels are not available"));

  library = {other, parsed("sm90_f16_128x256x64_coop_c1x1_rm_s8_st0")};
  s = select(big, &table, {}, &library);
  EXPECT_EQ(s.source, Source::ModelAmongAvailable);
  EXPECT_EQ(s.config, other);

  library = {parsed("sm90_f16_128x256x64_coop_c1x1_rm_s8_st0")};
  try {
    select(big, &table, {}, &library);
    ADD_FAILURE() << "no error";
  } catch (const DispatchError &e) {
    EXPECT_THAT(e.what(), HasSubstr("no kernel for m=8192 n=8192 k=8192 bf16 "
                                    "among the available ones"));
  }
}

TEST(SelectTest, RefusesWhatItCannotDispatch) {
  Target sm100{Arch::Sm100a, 148};
  EXPECT_THROW(select(problem(64, 64, 64), nullptr, sm100), DispatchError);
  try {
    Problem mixed = problem(64, 64, 64, DType::E4M3);
    mixed.inTypeB = DType::BF16;
    select(mixed, nullptr, {});
    ADD_FAILURE() << "no error";
  } catch (const DispatchError &e) {
    EXPECT_THAT(e.what(), HasSubstr("m=64 n=64 k=64 e4m3 x bf16 -> bf16: "
                                    "sm_90a kernels take A and B of bf16"));
  }
}

TEST(TuningTableTest, BadFilesNameTheProblem) {
  auto message = [](const std::string &text) -> std::string {
    try {
      TuningTable::parse(text, "t.json");
    } catch (const DispatchError &e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_THAT(message("{"), HasSubstr("t.json: not a JSON object"));
  EXPECT_THAT(message(R"({"format": "x"})"), HasSubstr("\"format\" is not"));
  EXPECT_THAT(message(R"({"format": "gemm-tuning-cache", "version": 9})"),
              HasSubstr("version 9; this dispatcher reads version 1"));
  EXPECT_THAT(message(R"({"format": "gemm-tuning-cache", "version": 1,
      "classes": {"c": {"bounds": {"m": [1, 2], "n": [1, 2], "k": [1, 2]},
                        "best": {"config": "huge"}}}})"),
              HasSubstr("classes.c.best.config: not a kernel configuration"));
  EXPECT_THROW(TuningTable::load("/nonexistent/t.json"), DispatchError);
}

TEST(KernelLibraryTest, IndexRoundTripAndMissingBundles) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "gemm-dispatch-test-library";
  fs::remove_all(dir);
  fs::create_directories(dir);
  { std::ofstream(dir / "source.json") << SmallTable; }
  TuningTable table = TuningTable::load(dir / "source.json");
  std::vector<KernelConfig> set = librarySet(table, {DType::BF16});
  // Two tuned bests, the default-order twin of the second (the split-K best
  // is its own) and the model's twelve tiles.
  EXPECT_EQ(set.size(), 2u + 1u + 12u);
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
  Selection s = library.select(problem(16, 8192, 8192), {});
  EXPECT_EQ(s.source, Source::Tuned);
  EXPECT_EQ(library.manifestPath(s.config),
            dir / "lib" /
                "sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_k2.json");
  fs::remove_all(dir);
}

} // namespace
