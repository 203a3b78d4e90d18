//===- PlanFixtures.h - A manifest, problem and options for plan tests ----===//
//
// The launch-planning and staging tests plan the same sample kernel: an
// SM90-shaped 128x256x64 tile with A, B and C descriptors and M, N, K sizes.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_UNITTESTS_RUNTIME_PLANFIXTURES_H
#define GEMM_UNITTESTS_RUNTIME_PLANFIXTURES_H

#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/Plan.h"

#include <gtest/gtest.h>

#include <string>

namespace gemm::runtime::plan_fixtures {

inline bundle::KernelManifest
manifest(bundle::GridPolicy policy = bundle::GridPolicy::Persistent) {
  using bundle::Param;
  using bundle::ProblemDim;
  using bundle::Tensor;
  bundle::KernelManifest m;
  m.name = m.kernel = "k";
  m.ptx = "k.ptx";
  m.block = {384, 1, 1};
  m.grid = policy;
  m.tile = {128, 256, 64};
  m.dynamicSmemBytes = 1024;
  m.params = {Param::tmaDescriptor({Tensor::A, {64, 128}}),
              Param::tmaDescriptor({Tensor::B, {64, 256}}),
              Param::tmaDescriptor({Tensor::C, {64, 32}}),
              Param::problemSize(ProblemDim::M),
              Param::problemSize(ProblemDim::N),
              Param::problemSize(ProblemDim::K)};
  return m;
}

/// The direct kernel's shape: a 64x64x64 tile, one CTA per tile, A, B and C
/// as pointers with their leading dimensions, element-size alignment.
inline bundle::KernelManifest directManifest() {
  using bundle::Param;
  using bundle::ProblemDim;
  using bundle::Tensor;
  bundle::KernelManifest m;
  m.name = m.kernel = "d";
  m.ptx = "d.ptx";
  m.block = {128, 1, 1};
  m.grid = bundle::GridPolicy::Tiles;
  m.tile = {64, 64, 64};
  m.dynamicSmemBytes = 32768;
  m.params = {
      Param::pointer(Tensor::A),         Param::pointer(Tensor::B),
      Param::pointer(Tensor::C),         Param::problemSize(ProblemDim::M),
      Param::problemSize(ProblemDim::N), Param::problemSize(ProblemDim::K),
      Param::leadingDim(Tensor::A),      Param::leadingDim(Tensor::B),
      Param::leadingDim(Tensor::C)};
  m.constraints.leadingDimAlignmentBytes = 2;
  return m;
}

inline Problem problem(uint64_t m, uint64_t n, uint64_t k, uint64_t batch = 1) {
  Problem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.batch = batch;
  return p;
}

inline PlanOptions options(uint32_t capacity = 132,
                           UnalignedPolicy unaligned = UnalignedPolicy::Stage) {
  PlanOptions o;
  o.persistentCtaCapacity = capacity;
  o.unaligned = unaligned;
  return o;
}

/// The message of the usage error planLaunch raises for `p` (a failed
/// expectation if it raises another kind), or "no error".
inline std::string planError(const bundle::KernelManifest &m,
                             const Problem &p) {
  try {
    planLaunch(m, p, options());
  } catch (const Error &e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    return std::string(e.what());
  }
  return std::string("no error");
}

} // namespace gemm::runtime::plan_fixtures

#endif // GEMM_UNITTESTS_RUNTIME_PLANFIXTURES_H
