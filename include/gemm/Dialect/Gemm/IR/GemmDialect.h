#ifndef GEMM_DIALECT_GEMM_IR_GEMMDIALECT_H
#define GEMM_DIALECT_GEMM_IR_GEMMDIALECT_H

#include "gemm/Bundle/KernelLimits.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Dialect.h"

#include "gemm/Dialect/Gemm/IR/GemmOpsDialect.h.inc"

#endif // GEMM_DIALECT_GEMM_IR_GEMMDIALECT_H
