//===- ErrorTest.cpp - Runtime errors and exit codes ----------------------===//

#include "gemm/Runtime/Error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace gemm::runtime;
using ::testing::HasSubstr;

namespace {

TEST(Error, ALaunchFailureOfADebugWaitsKernelIsATrap) {
  Error failed(ErrorKind::Cuda,
               "waiting for the kernel: CUDA_ERROR_LAUNCH_FAILED "
               "(unspecified launch failure)");
  Error trap = asDebugWaitTrap(failed, 500);
  EXPECT_EQ(trap.kind(), ErrorKind::Trap);
  EXPECT_EQ(exitCodeFor(trap.kind()), ExitTrap);
  EXPECT_THAT(trap.what(), HasSubstr("a wait bounded by debug-waits (500 ms) "
                                     "expired, but wrote no record"));
  EXPECT_THAT(trap.what(), HasSubstr("CUDA_ERROR_LAUNCH_FAILED"));
  // With the kernel's record, the message names the wait.
  Error named = asDebugWaitTrap(failed, 500,
                                std::string("CTA (4, 0, 0) warp 7, consumer: "
                                            "the full barrier, stage 0"));
  EXPECT_EQ(named.kind(), ErrorKind::Trap);
  EXPECT_THAT(named.what(), HasSubstr("the kernel trapped: a wait gave up "
                                      "after 500 ms: CTA (4, 0, 0) warp 7, "
                                      "consumer: the full barrier, stage 0"));
  // Without debug waits, or for other failures, the error stays what it was.
  EXPECT_EQ(asDebugWaitTrap(failed, 0).kind(), ErrorKind::Cuda);
  Error fault(ErrorKind::Cuda, "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory "
                               "access was encountered)");
  EXPECT_EQ(asDebugWaitTrap(fault, 500).kind(), ErrorKind::Cuda);
  Error hang(ErrorKind::Hang, "kernel did not finish");
  EXPECT_EQ(asDebugWaitTrap(hang, 500).kind(), ErrorKind::Hang);
}

} // namespace
