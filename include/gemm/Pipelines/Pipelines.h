#ifndef GEMM_PIPELINES_PIPELINES_H
#define GEMM_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::gemm {

/// The options of gemm-materialize-sm90 that the pipelines forward; both
/// pipelines' option structs derive from this.
template <typename Derived>
struct GemmKernelOptions : public PassPipelineOptions<Derived> {
  // The base is dependent: its Option needs qualifying here.
  using Options = mlir::detail::PassOptions;
  Options::Option<int64_t> wgmmaLookahead{
      *this, "wgmma-lookahead",
      llvm::cl::desc("SM90: WGMMA groups in flight when a stage is released "
                     "(0 to 4)"),
      llvm::cl::init(1)};
  Options::Option<int64_t> storeSlots{
      *this, "store-slots",
      llvm::cl::desc("SM90: epilogue staging slots per consumer (1 to 4)"),
      llvm::cl::init(2)};
  Options::Option<int64_t> debugWaits{
      *this, "debug-waits",
      llvm::cl::desc("bound every mbarrier wait to this many milliseconds, "
                     "then print where it waited and trap (0: wait forever)"),
      llvm::cl::init(0)};
  Options::Option<bool> checks{
      *this, "checks",
      llvm::cl::desc("run gemm-check-pipelines and gemm-check-protocol "
                     "(false: compile a kernel whose protocol is wrong, to "
                     "see it trap under debug-waits)"),
      llvm::cl::init(true)};
  Options::Option<bool> protocolCheck{
      *this, "protocol-check",
      llvm::cl::desc("run gemm-check-protocol, which executes each kernel in "
                     "the simulator (about a second per kernel)"),
      llvm::cl::init(true)};
  Options::Option<uint64_t> protocolMaxSteps{
      *this, "protocol-max-steps",
      llvm::cl::desc("gemm-check-protocol's step bound per kernel (its "
                     "max-steps; 0: none)"),
      llvm::cl::init(0)};
};

struct GemmToNVVMOptions : public GemmKernelOptions<GemmToNVVMOptions> {};

struct GemmToPTXOptions : public GemmKernelOptions<GemmToPTXOptions> {
  PassOptions::Option<std::string> outputDir{
      *this, "output-dir",
      llvm::cl::desc("write each kernel's bundle (NAME.ptx, NAME.cubin, "
                     "NAME.json) to this directory; empty: write nothing")};
  PassOptions::Option<std::string> ptxas{
      *this, "ptxas",
      llvm::cl::desc("ptxas for the cubin (default: PATH, then "
                     "/usr/local/cuda/bin); 'none' skips the cubin")};
};

/// gemm.matmul -> kernel IR -> NVVM/LLVM inside gpu.modules.
void buildGemmToNVVMPipeline(OpPassManager &pm,
                             const GemmToNVVMOptions &options);
/// buildGemmToNVVMPipeline, then PTX (gpu.binary) and optionally bundles.
void buildGemmToPTXPipeline(OpPassManager &pm, const GemmToPTXOptions &options);

void registerGemmPipelines();

} // namespace mlir::gemm

#endif // GEMM_PIPELINES_PIPELINES_H
