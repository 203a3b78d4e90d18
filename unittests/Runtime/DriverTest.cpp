//===- DriverTest.cpp - Loading the driver without a GPU ------------------===//
//
// CI machines have no driver: these check that its absence, and the toolkit's
// stub library, are clean NoDevice errors and never crashes.
//
//===----------------------------------------------------------------------===//

#include "gemm/Runtime/Driver.h"
#include "gemm/Runtime/Error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

using namespace gemm::runtime;
using ::testing::HasSubstr;

namespace {

std::string noDeviceError(const std::string &library) {
  try {
    loadDriver(library);
  } catch (const Error &error) {
    EXPECT_EQ(error.kind(), ErrorKind::NoDevice);
    EXPECT_EQ(exitCodeFor(error.kind()), ExitNoDevice);
    return error.what();
  }
  return "loaded";
}

TEST(Driver, MissingLibraryIsNoDevice) {
  EXPECT_THAT(noDeviceError("/nonexistent/libcuda.so.1"),
              HasSubstr("no NVIDIA driver: cannot load /nonexistent/"
                        "libcuda.so.1"));
}

TEST(Driver, StubLibraryIsNoDevice) {
  if (!std::filesystem::exists(GEMM_CUDA_STUB_LIBCUDA))
    GTEST_SKIP() << "no stub at " GEMM_CUDA_STUB_LIBCUDA;
  EXPECT_THAT(noDeviceError(GEMM_CUDA_STUB_LIBCUDA),
              HasSubstr("is the CUDA toolkit's stub library, not a driver"));
}

TEST(Driver, ExitCodes) {
  EXPECT_EQ(exitCodeFor(ErrorKind::Usage), 2);
  EXPECT_EQ(exitCodeFor(ErrorKind::Bundle), 2);
  EXPECT_EQ(exitCodeFor(ErrorKind::NoDevice), 3);
  EXPECT_EQ(exitCodeFor(ErrorKind::ArchMismatch), 4);
  EXPECT_EQ(exitCodeFor(ErrorKind::Cuda), 5);
  EXPECT_EQ(exitCodeFor(ErrorKind::Hang), 6);
}

} // namespace
