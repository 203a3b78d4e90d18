#ifndef GEMM_CONVERSION_PASSES_H
#define GEMM_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::gemm {
#define GEN_PASS_DECL
#include "gemm/Conversion/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "gemm/Conversion/Passes.h.inc"
} // namespace mlir::gemm

#endif // GEMM_CONVERSION_PASSES_H
