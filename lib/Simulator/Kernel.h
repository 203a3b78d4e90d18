//===- Kernel.h - The simulator's precomputed view of a kernel --*- C++ -*-===//
//
// Internal to the simulator. What does not change from run to run: every SSA
// value of the kernel numbered (a thread's values are a vector indexed by
// these numbers), every op's handler and operand/result numbers, the shared
// memory plan and the pipelines in it.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_SIMULATOR_KERNEL_H
#define GEMM_LIB_SIMULATOR_KERNEL_H

#include "gemm/Bundle/Manifest.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Simulator/Simulator.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace mlir::gemm::sim {

struct Exec;
enum class Step;
using Handler = Step (*)(Exec &);

/// An op's handler and the numbers of its operands and results.
struct OpInfo {
  Handler handler = nullptr;
  llvm::SmallVector<uint32_t, 4> operands, results;
};

/// A pipeline of the shared-memory plan.
struct PipelineInfo {
  /// Byte offset of its barriers (full[0..S), then empty[0..S)).
  uint32_t offset = 0;
  PipelineType type;
  /// Its position among the plan's pipelines (diagnostics: "pipeline 1").
  unsigned index = 0;
};

/// The MLIR element type of a manifest dtype.
Type elementType(MLIRContext *ctx, bundle::DType dtype);

class KernelImage {
public:
  /// Precomputes the view of `func`. An op without semantics is remembered
  /// in `unsupported` and reported by every run: a kernel with an op the
  /// simulator does not know cannot be trusted, even where no run reaches it.
  KernelImage(gpu::GPUFuncOp func, bundle::KernelManifest manifest);

  /// Op handles are values whose accessors are not const-qualified.
  mutable gpu::GPUFuncOp func;
  bundle::KernelManifest manifest;
  Arch arch = Arch::sm_90a;
  /// Element types of A, B and C (from the manifest).
  Type aType, bType, cType;
  /// A direct kernel (schedule = direct): A and B read with plain loads.
  bool direct = false;
  uint32_t numValues = 0;
  llvm::DenseMap<Value, uint32_t> values;
  llvm::DenseMap<Operation *, OpInfo> ops;
  mutable SmemPlanOp plan;
  llvm::SmallVector<int64_t> planOffsets;
  int64_t smemBytes = 0;
  std::vector<PipelineInfo> pipelines;
  /// Results of the ops whose value depends on the order of other
  /// threads' operations (atomics, barrier reductions, cluster launch
  /// control answers): part of the exhaustive mode's state hash.
  std::vector<uint32_t> orderDependentValues;
  /// The first op without a handler (the kernel cannot be simulated).
  std::optional<Violation> unsupported;

  const OpInfo &info(Operation *op) const { return ops.find(op)->second; }
  uint32_t index(Value value) const { return values.find(value)->second; }
  /// The pipeline whose barriers start at `offset`, or null.
  const PipelineInfo *pipelineAt(uint32_t offset) const;
  /// The pipeline and barrier a barrier offset belongs to.
  const PipelineInfo *pipelineOf(uint32_t barrierOffset) const;
};

} // namespace mlir::gemm::sim

#endif // GEMM_LIB_SIMULATOR_KERNEL_H
