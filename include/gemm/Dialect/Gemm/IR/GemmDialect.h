#ifndef GEMM_DIALECT_GEMM_IR_GEMMDIALECT_H
#define GEMM_DIALECT_GEMM_IR_GEMMDIALECT_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Dialect.h"

#include "gemm/Dialect/Gemm/IR/GemmOpsDialect.h.inc"

namespace mlir::gemm {
/// The longest raster panel (`swizzle`, in tiles) a config or
/// gemm.sched.static_tile takes: the lowering's 32-bit arithmetic needs the
/// value in range, and a panel past the grid's tiles is one panel anyway.
constexpr int64_t kMaxRasterSwizzle = 65536;
} // namespace mlir::gemm

#endif // GEMM_DIALECT_GEMM_IR_GEMMDIALECT_H
