//===- DebugWaitTest.cpp - debug-waits record reports ---------------------===//

#include "gemm/Runtime/Bundle.h"

#include <gtest/gtest.h>

using namespace gemm::runtime;

namespace {

gemm::bundle::KernelManifest manifestWithSites() {
  gemm::bundle::KernelManifest manifest;
  manifest.debugWaitsMs = 1000;
  manifest.debugWaitSites = {
      "consumer: the full barrier of a 4-stage pipeline (1 producer(s), 2 "
      "consumer(s))",
      "consumer: named barrier (bar.sync) of 128 threads"};
  return manifest;
}

TEST(DebugWaitRecord, IncompleteRecordIsNoReport) {
  uint32_t record[10] = {1, 0, 0, 0, 0, 4, 1, 0, 7, 0};
  EXPECT_FALSE(formatDebugWaitRecord(record, manifestWithSites()));
}

TEST(DebugWaitRecord, PipelineWaitNamesStagePhaseAndIteration) {
  uint32_t record[10] = {1, 0, 3, 1, 0, 4, 2, 1, 9, 1};
  EXPECT_EQ(*formatDebugWaitRecord(record, manifestWithSites()),
            "CTA (3, 1, 0) warp 4, consumer: the full barrier of a 4-stage "
            "pipeline (1 producer(s), 2 consumer(s)), stage 2, expected "
            "phase parity 1, iteration 9");
}

TEST(DebugWaitRecord, NamedBarrierNamesIdArrivalsAndGeneration) {
  // Barrier 2, generation 5, 96 of its 128 threads arrived.
  uint32_t record[10] = {1, 1, 7, 0, 0, 8, 2, 5, 96, 1};
  EXPECT_EQ(*formatDebugWaitRecord(record, manifestWithSites()),
            "CTA (7, 0, 0) warp 8, consumer: named barrier (bar.sync) of 128 "
            "threads: barrier id 2, 96 thread(s) arrived, generation 5");
}

TEST(DebugWaitRecord, UnknownSiteIsNamedByNumber) {
  uint32_t record[10] = {1, 12, 0, 0, 0, 0, 0, 0, 0, 1};
  EXPECT_EQ(*formatDebugWaitRecord(record, manifestWithSites()),
            "CTA (0, 0, 0) warp 0, wait site 12, stage 0, expected phase "
            "parity 0, iteration 0");
}

} // namespace
