//===- ConfigMutator.h - gemm-aware mutations of fuzz inputs -------------===//
//
// libFuzzer's byte mutations rarely keep an MLIR file parseable, so most of
// its executions would end in the parser. This mutator knows the syntax of
// `gemm.matmul` and `#gemm.config<...>` and rewrites one field at a time
// (types, layouts, arch, tile, cluster, stages, schedule, scheduler, splits,
// raster, swizzle, accum_stages, cta_group, k_group, the epilogue region),
// with legal and illegal values alike, plus the pipeline options of the
// harness's option line, integers anywhere (kernel IR types and attributes)
// and whole lines (kernel IR op order). It is plain text processing, so it
// needs no MLIR and can be unit tested on its own.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_TOOLS_GEMM_FUZZ_CONFIGMUTATOR_H
#define GEMM_TOOLS_GEMM_FUZZ_CONFIGMUTATOR_H

#include <cstdint>
#include <random>
#include <string>

namespace gemm_fuzz {

/// The first line of an input may set the harness's pipeline options:
///   // gemm-fuzz: ptx=1 debug-waits=5 wgmma-lookahead=0 store-slots=3 checks=0
/// Keys left out keep the values derived from the input's hash.
inline constexpr const char *kOptionsPrefix = "// gemm-fuzz:";

/// One structure-aware mutation of `text`, chosen by `rng`. Returns false
/// when no mutation of the chosen kind applies (the caller then falls back
/// to byte mutations).
bool mutateText(std::string &text, std::mt19937_64 &rng);

} // namespace gemm_fuzz

#endif // GEMM_TOOLS_GEMM_FUZZ_CONFIGMUTATOR_H
