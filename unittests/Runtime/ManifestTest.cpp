//===- ManifestTest.cpp - Kernel bundle manifest --------------------------===//

#include "gemm/Bundle/Manifest.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace gemm::bundle;
using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

KernelManifest exampleManifest() {
  KernelManifest m;
  m.name = m.kernel = "gemm_sm90_bf16_128x256x64";
  m.arch = Arch::Sm90a;
  m.ptx = "gemm_sm90_bf16_128x256x64.ptx";
  m.block = {384, 1, 1};
  m.dynamicSmemBytes = 200704;
  m.tile = {128, 256, 64};
  TmaDescriptorParam a{Tensor::A, {64, 128}};
  TmaDescriptorParam b{Tensor::B, {64, 256}};
  TmaDescriptorParam c{Tensor::C, {64, 32}};
  c.l2Promotion = L2Promotion::None;
  m.params = {
      Param::tmaDescriptor(a),           Param::tmaDescriptor(b),
      Param::tmaDescriptor(c),           Param::problemSize(ProblemDim::M),
      Param::problemSize(ProblemDim::N), Param::problemSize(ProblemDim::K)};
  return m;
}

std::vector<std::string> parseErrors(const json &j) {
  ParseResult result = parseManifest(j);
  EXPECT_FALSE(result.manifest);
  return result.errors;
}

json exampleJson() { return json::parse(exampleManifest().toJsonString()); }

TEST(Manifest, Spellings) {
  EXPECT_EQ(toString(DType::E4M3), "e4m3");
  EXPECT_EQ(parseEnum<Swizzle>("128B"), Swizzle::B128);
  EXPECT_EQ(parseEnum<Swizzle>("128b"), std::nullopt);
  EXPECT_EQ(spellingList<Layout>(), "row, col");
  EXPECT_EQ(elementBytes(DType::F32), 4u);
  EXPECT_EQ(swizzleSpanBytes(Swizzle::B64), 64u);
}

TEST(Manifest, RoundTrip) {
  KernelManifest m = exampleManifest();
  m.cubin = "x.cubin";
  m.cluster = {2, 1, 1};
  m.clusterTiles = std::array<uint32_t, 2>{1, 2};
  m.workUnitsPerTile = 2;
  m.constraints.kMultiple = 64;
  m.debugWaitsMs = 500;
  m.debugWaitSites = {"producer: the empty barrier", "consumer: the full one"};
  ParseResult parsed = parseManifestText(m.toJsonString());
  ASSERT_TRUE(parsed.manifest) << ::testing::PrintToString(parsed.errors);
  EXPECT_EQ(*parsed.manifest, m);
  EXPECT_TRUE(parsed.manifest->validate().empty());

  json j = m;
  EXPECT_EQ(j["format"], "gemm-kernel-bundle");
  EXPECT_EQ(j["grid"]["work_units_per_tile"], 2);
  EXPECT_EQ(j["debug_waits_ms"], 500);
  EXPECT_EQ(j["debug_wait_sites"][1], "consumer: the full one");
  // Optional fields at their defaults are left out.
  EXPECT_FALSE(exampleJson().contains("debug_waits_ms"));
  EXPECT_EQ(j["version"], FormatVersion);
  EXPECT_EQ(j.get<KernelManifest>(), m);
}

TEST(Manifest, ReadsTheDocumentedExample) {
  const char *text = R"({
    "format": "gemm-kernel-bundle", "version": 1,
    "name": "gemm_sm90_bf16_128x256x64", "kernel": "gemm_sm90_bf16_128x256x64",
    "arch": "sm_90a", "ptx": "gemm_sm90_bf16_128x256x64.ptx",
    "block": [384, 1, 1], "cluster": [1, 1, 1], "grid": {"policy": "persistent"},
    "dynamic_smem_bytes": 200704, "tile": [128, 256, 64],
    "types": {"a": "bf16", "b": "bf16", "c": "bf16", "accumulator": "f32"},
    "layouts": {"a": "row", "b": "col", "c": "row"},
    "params": [
      {"kind": "tma_descriptor", "tensor": "a", "box": [64, 128], "swizzle": "128B", "interleave": "none", "l2_promotion": "256B", "oob_fill": "zero"},
      {"kind": "tma_descriptor", "tensor": "b", "box": [64, 256], "swizzle": "128B", "interleave": "none", "l2_promotion": "256B", "oob_fill": "zero"},
      {"kind": "tma_descriptor", "tensor": "c", "box": [64, 32], "swizzle": "128B", "interleave": "none", "l2_promotion": "none", "oob_fill": "zero"},
      {"kind": "problem_size", "dim": "m"}, {"kind": "problem_size", "dim": "n"},
      {"kind": "problem_size", "dim": "k"}],
    "constraints": {"leading_dim_alignment_bytes": 16, "min_m": 1, "min_n": 1, "min_k": 1}
  })";
  ParseResult parsed = parseManifestText(text);
  ASSERT_TRUE(parsed.manifest) << ::testing::PrintToString(parsed.errors);
  EXPECT_EQ(*parsed.manifest, exampleManifest());
}

TEST(Manifest, SyntaxErrorHasPosition) {
  ParseResult parsed = parseManifestText("{\"format\": }");
  ASSERT_EQ(parsed.errors.size(), 1u);
  EXPECT_THAT(parsed.errors[0],
              HasSubstr("invalid JSON: parse error at line 1, column 12"));
}

TEST(Manifest, WrongFormatOrVersionStopsEarly) {
  json j = exampleJson();
  j["version"] = 2;
  j["arch"] = "sm_42";
  EXPECT_THAT(parseErrors(j),
              ElementsAre("version: manifest version 2 is not supported (this "
                          "runtime reads version 1); re-export the bundle with "
                          "a matching compiler"));
  j = exampleJson();
  j["format"] = "something-else";
  EXPECT_THAT(parseErrors(j),
              ElementsAre(HasSubstr("format: 'something-else' is not a kernel "
                                    "bundle manifest")));
}

TEST(Manifest, ReportsEveryBadField) {
  json j = exampleJson();
  j["types"]["a"] = "bf17";
  j["params"][1]["swizzle"] = "96B";
  j["block"] = {384, 1};
  j.erase("kernel");
  j["colour"] = "blue";
  std::vector<std::string> errors = parseErrors(j);
  EXPECT_THAT(errors,
              ::testing::UnorderedElementsAre(
                  HasSubstr("colour: unknown field"),
                  "kernel: missing required field",
                  "block: expected an array of 3 unsigned integers, got "
                  "[384,1]",
                  "types.a: unknown dtype 'bf17' (expected one of bf16, f16, "
                  "f32, e4m3, e5m2, s8, u8, s32)",
                  "params[1].swizzle: unknown swizzle '96B' (expected one of "
                  "none, 32B, 64B, 128B)"));
}

TEST(Manifest, RejectsWrongTypes) {
  json j = exampleJson();
  j["dynamic_smem_bytes"] = -1;
  j["tile"] = {128, 256.5, 64};
  j["params"][3] = {{"kind", "problem_size"}, {"dim", "q"}};
  EXPECT_THAT(parseErrors(j),
              ::testing::UnorderedElementsAre(
                  "dynamic_smem_bytes: expected an unsigned integer, got -1",
                  "tile[1]: expected an unsigned integer, got 256.5",
                  "params[3].dim: unknown problem dim 'q' (expected one of m, "
                  "n, k, batch, batch_broadcast, groups)"));
}

TEST(Manifest, ValidateHardwareLimits) {
  KernelManifest m = exampleManifest();
  m.block = {1024, 2, 1};
  m.cluster = {4, 4, 1};
  m.dynamicSmemBytes = 240000;
  m.types.accumulator = DType::E4M3;
  EXPECT_THAT(
      m.validate(),
      ElementsAre(
          "block: [1024, 2, 1] is 2048 threads per block; the hardware limit "
          "is 1024",
          "cluster: [4, 4, 1] is 16 CTAs per cluster; the portable maximum is "
          "8 (set \"cluster_non_portable\": true to allow up to 16)",
          "dynamic_smem_bytes: 240000 exceeds the per-block maximum of 232448 "
          "bytes (227 KiB)",
          "types.accumulator: e4m3 cannot accumulate; expected f32, f16 or "
          "s32"));
  m = exampleManifest();
  m.cluster = {4, 4, 1};
  m.clusterNonPortable = true;
  EXPECT_TRUE(m.validate().empty());
  m.cluster = {32, 1, 1};
  EXPECT_THAT(m.validate(), ElementsAre(HasSubstr("hardware maximum is 16")));
}

TEST(Manifest, BatchAndBroadcastGoTogether) {
  KernelManifest m = exampleManifest();
  m.params.push_back(Param::problemSize(ProblemDim::Batch));
  EXPECT_THAT(m.validate(),
              ElementsAre("params: problem_size batch and batch_broadcast go "
                          "together (a batched kernel takes both)"));
  m.params.push_back(Param::problemSize(ProblemDim::BatchBroadcast));
  EXPECT_TRUE(m.validate().empty());
  EXPECT_TRUE(m.hasBatch());
}

TEST(Manifest, DebugWaitSitesAreStrings) {
  json j = exampleJson();
  j["debug_wait_sites"] = {"a", 2};
  EXPECT_THAT(parseErrors(j),
              ElementsAre(HasSubstr("debug_wait_sites: expected an array of "
                                    "strings, got [\"a\",2]")));
}

TEST(Manifest, ClusterTiles) {
  // Optional: without it a cluster is a column of tiles along M.
  KernelManifest m = exampleManifest();
  m.cluster = {4, 1, 1};
  EXPECT_EQ(json(m).count("cluster_tiles"), 0u);
  EXPECT_THAT(m.clusterTileShape(), ElementsAre(4u, 1u));
  m.clusterTiles = std::array<uint32_t, 2>{2, 2};
  EXPECT_THAT(m.clusterTileShape(), ElementsAre(2u, 2u));
  EXPECT_TRUE(m.validate().empty());
  // One tile per CTA of the cluster.
  m.clusterTiles = std::array<uint32_t, 2>{2, 1};
  EXPECT_THAT(m.validate(),
              ElementsAre("cluster_tiles: [2, 1] covers 2 tiles, but the "
                          "cluster has 4 CTAs (one tile each)"));
  json j = exampleJson();
  j["cluster_tiles"] = {2};
  EXPECT_THAT(parseErrors(j),
              ElementsAre(HasSubstr("cluster_tiles: expected an array of 2 "
                                    "unsigned integers")));
}

TEST(Manifest, Workspace) {
  KernelManifest m = exampleManifest();
  m.params.push_back(Param::workspaceBuffer({65536, 0, false}));
  m.params.push_back(Param::workspaceBuffer({16, 0, true}));
  m.params.push_back(Param::workspaceBuffer({0, 131072, false}));
  ParseResult parsed = parseManifestText(m.toJsonString());
  ASSERT_TRUE(parsed.manifest) << ::testing::PrintToString(parsed.errors);
  EXPECT_EQ(*parsed.manifest, m);
  EXPECT_TRUE(m.validate().empty());
  json j = m;
  EXPECT_EQ(j["params"][7],
            json::parse(R"({"kind": "workspace", "bytes_per_tile": 16,
                            "zero_init": true})"));
  EXPECT_EQ(j["params"][8],
            json::parse(R"({"kind": "workspace", "bytes_per_cta": 131072,
                            "zero_init": false})"));
  m.params[6].workspace.bytesPerTile = 24;
  m.params[7].workspace.bytesPerTile = 0;
  m.params[8].workspace.bytesPerCta = 8;
  EXPECT_THAT(m.validate(),
              ElementsAre("params[6].bytes_per_tile: 24 must be a multiple "
                          "of 16",
                          "params[7]: a workspace needs bytes_per_tile or "
                          "bytes_per_cta (a positive multiple of 16)",
                          "params[8].bytes_per_cta: 8 must be a multiple of "
                          "16"));
  j["params"][7]["colour"] = "blue";
  EXPECT_THAT(parseErrors(j),
              ElementsAre(HasSubstr("params[7].colour: unknown field")));
}

TEST(Manifest, ValidateTmaBoxes) {
  KernelManifest m = exampleManifest();
  m.params[0].tma.box = {64, 512};  // outer > 256
  m.params[1].tma.box = {128, 256}; // 256 bytes > 128B swizzle
  m.params[2].tma.box = {4, 32};    // 8 bytes, not 16-byte multiple
  m.params[2].tma.swizzle = Swizzle::None;
  EXPECT_THAT(
      m.validate(),
      ElementsAre(
          "params[0].box: box dimension 1 is 512; TMA boxes must be 1..256 "
          "elements per dimension",
          "params[1].box: inner box extent 128 x bf16 = 256 bytes exceeds the "
          "128B swizzle span of 128 bytes (TMA rule: inner box bytes <= "
          "swizzle span)",
          "params[2].box: inner box extent 4 x bf16 = 8 bytes is not a "
          "multiple of 16 bytes (TMA rule for interleave none)"));
}

TEST(Manifest, ValidateParamList) {
  KernelManifest m = exampleManifest();
  m.params[2] = Param::tmaDescriptor(m.params[0].tma);
  m.params[5] = Param::problemSize(ProblemDim::M);
  m.kernel = "not a symbol";
  m.types.b = DType::F16;
  EXPECT_THAT(m.validate(),
              ElementsAre("kernel: 'not a symbol' is not a valid PTX entry "
                          "name",
                          "types: a is bf16 and b is f16; A and B must have "
                          "the same dtype (only e4m3 and e5m2 mix, and s8 "
                          "and u8)",
                          "params[2]: a second tma_descriptor for tensor a "
                          "with the box of params[0]",
                          "params[5]: a second problem_size for dim m (first "
                          "at params[3])",
                          "params: no tma_descriptor or pointer for tensor c",
                          "params: no problem_size for dim k"));
}

TEST(Manifest, ASecondBoxOfATensorIsValid) {
  // A 64-row tile reads A through 16-row boxes where it reaches past M.
  KernelManifest m = exampleManifest();
  TmaDescriptorParam partial = m.params[0].tma;
  partial.box[1] = 16;
  m.params.push_back(Param::tmaDescriptor(partial));
  EXPECT_TRUE(m.validate().empty()) << ::testing::PrintToString(m.validate());
  ParseResult parsed = parseManifestText(m.toJsonString());
  ASSERT_TRUE(parsed.manifest) << ::testing::PrintToString(parsed.errors);
  EXPECT_EQ(*parsed.manifest, m);
}

/// The direct kernel's contract: pointers and leading dimensions instead of
/// descriptors, element-size alignment.
KernelManifest pointerManifest() {
  KernelManifest m = exampleManifest();
  m.block = {128, 1, 1};
  m.grid = GridPolicy::Tiles;
  m.tile = {64, 64, 64};
  m.params = {
      Param::pointer(Tensor::A),         Param::pointer(Tensor::B),
      Param::pointer(Tensor::C),         Param::problemSize(ProblemDim::M),
      Param::problemSize(ProblemDim::N), Param::problemSize(ProblemDim::K),
      Param::leadingDim(Tensor::A),      Param::leadingDim(Tensor::B),
      Param::leadingDim(Tensor::C)};
  m.constraints.leadingDimAlignmentBytes = 2;
  return m;
}

TEST(Manifest, PointerParams) {
  KernelManifest m = pointerManifest();
  EXPECT_TRUE(m.validate().empty()) << ::testing::PrintToString(m.validate());
  EXPECT_TRUE(m.takesPointer(Tensor::B));
  EXPECT_EQ(m.tmaDescriptorFor(Tensor::B), nullptr);
  std::string text = m.toJsonString(-1);
  EXPECT_THAT(text, HasSubstr(R"({"kind":"pointer","tensor":"a"})"));
  EXPECT_THAT(text, HasSubstr(R"({"kind":"leading_dim","tensor":"c"})"));
  EXPECT_THAT(text, HasSubstr(R"("leading_dim_alignment_bytes":2)"));
  ParseResult parsed = parseManifestText(text);
  ASSERT_TRUE(parsed.manifest) << ::testing::PrintToString(parsed.errors);
  EXPECT_EQ(*parsed.manifest, m);

  json j = json::parse(text);
  j["params"][0]["tensor"] = "d";
  j["params"][6]["box"] = json::array({1, 2});
  EXPECT_THAT(parseErrors(j),
              ElementsAre("params[0].tensor: unknown tensor 'd' (expected one "
                          "of a, b, c)",
                          "params[6].box: unknown field (known fields: kind, "
                          "tensor)"));

  // Each pointer with its leading dimension, once; not with a descriptor;
  // TMA kernels keep the 16-byte rule.
  m.params[8] = Param::leadingDim(Tensor::A);
  m.params.push_back(Param::tmaDescriptor({Tensor::B, {64, 64}}));
  m.constraints.leadingDimAlignmentBytes = 3;
  EXPECT_THAT(
      m.validate(),
      ElementsAre(
          "params[8]: a second leading_dim for tensor a (first at params[6])",
          "params: tensor b has both a tma_descriptor and a pointer; a kernel "
          "reads a matrix through one of them",
          "params: tensor c has a pointer without a leading_dim (a pointer "
          "parameter needs the row stride that goes with it)",
          "constraints.leading_dim_alignment_bytes: 3 must be a power of two"));
  // A batch has no pointer form (the direct kernels run single problems).
  KernelManifest batched = pointerManifest();
  batched.params.push_back(Param::problemSize(ProblemDim::Batch));
  batched.params.push_back(Param::problemSize(ProblemDim::BatchBroadcast));
  EXPECT_THAT(batched.validate(),
              ElementsAre("params: tensor a is a pointer in a batched kernel; "
                          "batched kernels address their entries through "
                          "(rank-3) tma_descriptors",
                          "params: tensor b is a pointer in a batched kernel; "
                          "batched kernels address their entries through "
                          "(rank-3) tma_descriptors",
                          "params: tensor c is a pointer in a batched kernel; "
                          "batched kernels address their entries through "
                          "(rank-3) tma_descriptors"));
  // Pointers are the direct kernel's: bf16 and f16 only.
  KernelManifest fp8 = pointerManifest();
  fp8.types.a = fp8.types.b = DType::E4M3;
  fp8.types.c = DType::BF16;
  EXPECT_THAT(fp8.validate(),
              ElementsAre("params: pointer parameters (the direct kernel) "
                          "take bf16 or f16 inputs without scales; a kernel "
                          "of e4m3 x e4m3 takes tma_descriptors"));
  KernelManifest tma = exampleManifest();
  tma.constraints.leadingDimAlignmentBytes = 2;
  EXPECT_THAT(tma.validate(),
              ElementsAre("constraints.leading_dim_alignment_bytes: 2 must be "
                          ">= 16 for a kernel with TMA descriptors (TMA "
                          "strides are 16-byte multiples)"));
}

TEST(Manifest, Fp8MixesAreValid) {
  KernelManifest m = exampleManifest();
  m.types = {DType::E4M3, DType::E5M2, DType::BF16, DType::F32};
  m.params[0].tma.box = {128, 128};
  m.params[1].tma.box = {128, 256};
  EXPECT_TRUE(m.validate().empty());
}

} // namespace
