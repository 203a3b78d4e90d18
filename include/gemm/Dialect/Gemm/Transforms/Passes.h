#ifndef GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_H
#define GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::gemm {
#define GEN_PASS_DECL
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"
} // namespace mlir::gemm

#endif // GEMM_DIALECT_GEMM_TRANSFORMS_PASSES_H
