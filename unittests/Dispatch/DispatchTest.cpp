//===- DispatchTest.cpp - Kernel configurations and the dispatcher --------===//

#include "gemm/Dispatch/Dispatcher.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace gemm::dispatch;
using gemm::bundle::Arch;
using gemm::bundle::Layout;
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

TEST(SelectTest, LayoutsKeepTheConfiguration) {
  TuningTable table = TuningTable::parse(SmallTable, "small.json");
  Problem p = problem(16, 8192, 8192);
  Selection plain = select(p, &table, {});
  p.layouts.a = Layout::Col;
  p.layouts.b = Layout::Row;
  Selection s = select(p, &table, {});
  EXPECT_EQ(s.config.key(), plain.config.key());
  EXPECT_EQ(s.config.layouts, p.layouts);
  EXPECT_FALSE(s.transposed);
  EXPECT_EQ(p.toString(), "m=16 n=8192 k=8192 bf16 a col b row c row");
}

TEST(SelectTest, ColumnMajorCWithoutItsKernelsIsTheTransposedProblem) {
  TuningTable table = TuningTable::parse(SmallTable, "small.json");
  std::vector<KernelConfig> library =
      librarySet(table, {DType::BF16}, libraryLayouts());
  // 15 configurations in each of the 4 input layouts, C row-major only.
  EXPECT_EQ(library.size(), 60u);
  for (const KernelConfig &config : library)
    EXPECT_EQ(config.layouts.c, Layout::Row);

  // A col-major C of M = 8192, N = 16: C^T is 16 x 8192 (the tuned small-M
  // class), with A' = B (K-major stays K-major) and B' = A (M-major: the
  // N-major B of the transposed problem).
  Problem p = problem(8192, 16, 8192);
  p.layouts.a = Layout::Col;
  p.layouts.c = Layout::Col;
  Problem t = p.transposed();
  EXPECT_EQ(t.m, 16u);
  EXPECT_EQ(t.n, 8192u);
  EXPECT_EQ(t.layouts.a, Layout::Row);
  EXPECT_EQ(t.layouts.b, Layout::Row);
  EXPECT_EQ(t.layouts.c, Layout::Row);
  Selection s = select(p, &table, {}, &library);
  EXPECT_TRUE(s.transposed);
  EXPECT_EQ(s.config.name(),
            "sm90_bf16_akbncr_64x128x64_pingpong_c1x1_rm_s8_st0_k2");
  EXPECT_THAT(s.reason, HasSubstr("no available kernel writes a column-major "
                                  "C; the transposed problem C^T = B A^T"));
  // Without a library the column-major C kernel itself is picked.
  Selection exact = select(p, &table, {});
  EXPECT_FALSE(exact.transposed);
  EXPECT_EQ(exact.config.layouts, p.layouts);
}

TEST(SelectTest, BatchesAreOneProblemOfTheirRowsAndWholeTiles) {
  TuningTable table = TuningTable::parse(SmallTable, "small.json");
  KernelConfig named = parsed("sm90_bf16_ambncr_batched_128x256x64_coop_c1x1_"
                              "rm_s8_st0");
  EXPECT_TRUE(named.batched);
  EXPECT_EQ(named.name(),
            "sm90_bf16_ambncr_batched_128x256x64_coop_c1x1_rm_s8_st0");
  EXPECT_THAT(named.mlir(), HasSubstr("acc(f32) batched\n"));
  EXPECT_TRUE(
      parsed("sm90_bf16_batched_64x64x64_pingpong_c1x1_rm_s8_st0").batched);

  // 8 x (1024 x 8192 x 8192) is one problem of 8192 rows: the tuned class
  // of M >= 4097, its best batched.
  Problem p = problem(1024, 8192, 8192);
  p.batch = 8;
  EXPECT_EQ(p.toString(), "m=1024 n=8192 k=8192 bf16 batch=8");
  Selection s = select(p, &table, {});
  EXPECT_EQ(s.source, Source::Tuned);
  EXPECT_EQ(s.config.name(),
            "sm90_bf16_batched_128x192x64_coop_c2x1_rn_s4_st0");
  EXPECT_THAT(s.reason, HasSubstr("the batch as one problem of 8192 rows"));
  // 2 x (16 x 8192 x 8192): the class of 32 rows has a split-K best, which
  // batches do not take: the model decides, with the batch's tiles.
  p = problem(16, 8192, 8192);
  p.batch = 2;
  s = select(p, &table, {});
  EXPECT_EQ(s.source, Source::Model);
  EXPECT_TRUE(s.config.batched);
  EXPECT_EQ(s.config.splits, 1u);
  EXPECT_FALSE(s.config.streamK);
  Problem one = problem(16, 8192, 8192);
  EXPECT_EQ(estimate(s.config, p, {}).tiles,
            2 * estimate(s.config, one, {}).tiles);

  // The library holds the batched twins of what batches can get.
  std::vector<KernelConfig> library =
      librarySet(table, {DType::BF16}, libraryLayouts(), /*batched=*/true);
  size_t batched = 0;
  for (const KernelConfig &config : library)
    if (config.batched) {
      ++batched;
      EXPECT_EQ(config.splits, 1u) << config.name();
      EXPECT_FALSE(config.streamK) << config.name();
    }
  // The split-K class's best and its default-order twin (also split-K) go:
  // the other class's two and the model's 12 tiles, in each of 4 layouts.
  EXPECT_EQ(batched, 4u * 14);
  EXPECT_EQ(library.size(), 60u + 4 * 14);
  s = select(p, &table, {}, &library);
  EXPECT_TRUE(s.config.batched);
}

TEST(SelectTest, RefusesWhatItCannotDispatch) {
  Target sm100{Arch::Sm100a, 148};
  EXPECT_THROW(select(problem(64, 64, 64), nullptr, sm100), DispatchError);
  try {
    select(problem(64, 64, 64, DType::E4M3), nullptr, {});
    ADD_FAILURE() << "no error";
  } catch (const DispatchError &e) {
    EXPECT_THAT(e.what(), HasSubstr("take bf16 or f16 inputs"));
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
