//===- TestModels.h - Model files for the dispatcher's tests ----*- C++ -*-===//

#ifndef GEMM_UNITTESTS_DISPATCH_TESTMODELS_H
#define GEMM_UNITTESTS_DISPATCH_TESTMODELS_H

#include <string>

namespace gemm::dispatch::test {

/// The text of a model file for the tests: an H200's 132 SMs, round
/// hardware constants (version 2 adds the staging and direct-kernel ones),
/// a correction of width 0.6 and prior weight 0.25, and the given tile
/// efficiencies and candidates (the insides of their JSON objects).
inline std::string testModel(int version, const std::string &tileEfficiency,
                             const std::string &candidates) {
  std::string hardware = R"("launch_us": 8, "load_latency_us": 1.5, "l2_tbps": 12,
               "read_tbps": 4, "write_tbps": 4.5, "fixup_tbps": 5,
               "stream_k_fixed_us": 12, "stream_k_traffic": 1.0,
               "cluster_compute": 1.0)";
  if (version >= 2)
    hardware += R"(, "stage_launch_us": 4,
               "stage_tbps": 2, "direct_launch_us": 5,
               "direct_kblock_us": 0.6, "direct_gloads_per_sm": 40)";
  return R"({
  "format": "gemm-dispatch-model", "version": )" +
         std::to_string(version) + R"(,
  "gpu": {"name": "NVIDIA H200", "sm_count": 132},
  "fitted_on": {},
  "hardware": {)" +
         hardware + R"(},
  "tile_efficiency": {)" +
         tileEfficiency + R"(},
  "correction": {"bandwidth": 0.6, "prior_weight": 0.25},
  "candidates": {)" +
         candidates + R"(}
})";
}

/// A version 2 model (the staging and direct-kernel constants) with a 64x64
/// direct kernel among its candidates, beside 64x64 pingpong and 128x256
/// cooperative.
inline std::string directModel() {
  return testModel(2,
                   R"("64x64_pingpong": 0.8, "128x256_coop": 0.85,
                      "64x64_direct": 0.7)",
                   R"("64x64x64_pingpong_c1x1_rm_s8_st0": [],
                      "128x256x64_coop_c1x1_rm_s8_st0": [],
                      "64x64x64_direct_c1x1_rm_s8_st0": [])");
}

} // namespace gemm::dispatch::test

#endif // GEMM_UNITTESTS_DISPATCH_TESTMODELS_H
