//===- CheckPlacement.cpp - kernels where the gemm pipelines compile them -===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMCHECKPLACEMENT
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;

namespace {

/// A `module` nested in another one mostly comes from a file of several
/// top-level operations: the parser wraps them in an implicit module.
void noteImplicitModule(InFlightDiagnostic &diag, Operation *parent) {
  if (isa<ModuleOp>(parent))
    diag.attachNote(parent->getLoc())
        << "this module is not the top level (a file of more than one "
           "top-level operation is parsed into an implicit module that holds "
           "them)";
}

struct GemmCheckPlacementPass
    : public mlir::gemm::impl::GemmCheckPlacementBase<GemmCheckPlacementPass> {
  void runOnOperation() override {
    ModuleOp root = getOperation();
    bool misplaced = false;
    root.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op)) {
        Operation *parent = op->getParentOp();
        if (parent == root.getOperation())
          return WalkResult::advance();
        // At its location, without the whole module printed after it.
        InFlightDiagnostic diag =
            emitError(op->getLoc(), "gpu.module @")
            << cast<gpu::GPUModuleOp>(op).getName() << " is nested in '"
            << parent->getName()
            << "': the gemm pipelines compile only the gpu.modules at the top "
               "level of the module (convert-gpu-to-nvvm and "
               "gpu-module-to-binary look no deeper); move it there";
        noteImplicitModule(diag, parent);
        misplaced = true;
        return WalkResult::skip();
      }
      if (isa<MatmulOp>(op)) {
        Operation *parent = op->getParentOp();
        if (parent == root.getOperation())
          return WalkResult::skip();
        InFlightDiagnostic diag =
            emitError(op->getLoc(), "gemm.matmul @")
            << cast<MatmulOp>(op).getSymName() << " is nested in '"
            << parent->getName()
            << "': a gemm.matmul belongs at the top level of the module, "
               "where its kernel's gpu.module is built and compiled; move it "
               "there";
        noteImplicitModule(diag, parent);
        misplaced = true;
        return WalkResult::skip();
      }
      // Kernel ops are lowered wherever they are (convert-gemm-to-nvvm also
      // serves host functions of scheduler arithmetic), but one outside every
      // function is code of no function at all.
      if (isa<GemmDialect>(op->getDialect()) &&
          !op->getParentOfType<FunctionOpInterface>()) {
        op->emitOpError("is outside every function: kernel ops belong in a "
                        "gpu.func of a gpu.module; move it there");
        misplaced = true;
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    if (misplaced)
      signalPassFailure();
  }
};

} // namespace
