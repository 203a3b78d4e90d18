#ifndef GEMM_DIALECT_GEMM_IR_GEMMOPS_H
#define GEMM_DIALECT_GEMM_IR_GEMMOPS_H

#include "gemm/Dialect/Gemm/IR/GemmDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "gemm/Dialect/Gemm/IR/GemmEnums.h.inc"

namespace mlir::gemm {
/// `[a, b, ...]` integer lists in attribute and type assembly.
FailureOr<SmallVector<int64_t>> parseBracketedIntegers(AsmParser &parser);
void printBracketedIntegers(AsmPrinter &printer, ArrayRef<int64_t> values);
} // namespace mlir::gemm

#define GET_ATTRDEF_CLASSES
#include "gemm/Dialect/Gemm/IR/GemmAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "gemm/Dialect/Gemm/IR/GemmOpsTypes.h.inc"
#define GET_OP_CLASSES
#include "gemm/Dialect/Gemm/IR/GemmOps.h.inc"

namespace mlir::gemm {
/// Bytes of one element of a GEMM operand type (8-bit floats included).
int64_t getElementBytes(Type type);
/// Whether `type` can be a WGMMA/tcgen05 A or B operand of this dialect.
bool isSupportedInputType(Type type);
/// Fails with "'<op>' needs <arch>, but this kernel targets <chip>" when the
/// kernel enclosing `op` (gemm.arch on its gpu.func, and each of its
/// gpu.module's NVVM targets) targets another arch; succeeds outside kernels.
LogicalResult verifyArch(Operation *op, Arch required);
/// Checks that `region`, if not empty, maps one accumulator value to one
/// value of `resultType` (the epilogue of gemm.matmul and of the ops that
/// write accumulators to staging shared memory).
LogicalResult verifyEpilogueRegion(Operation *op, Region &region, Type accType,
                                   Type resultType);
/// The element type rules of a gemm.matmul (A, B, C, accumulator) and its
/// quant attribute (GemmQuant.cpp).
LogicalResult verifyMatmulTypes(MatmulOp op);
/// What an epilogue region yields for output type `cType`: cType, or f32
/// for fp8 outputs (the kernel applies the output scale and rounds).
Type getEpilogueResultType(Type cType);
/// The conversion rules of gemm.accum.store_smem: i32 accumulators only into
/// i32 slots; fp8 slots need the output scale, others take no scale or amax.
LogicalResult verifyStoreConversion(AccumStoreSmemOp op);
/// Checks an epilogue staging buffer: bf16/f16/f32 (with `lowPrecision`
/// also fp8 and i32) rows of 128 bytes in the
/// 128-byte swizzle, `rows` rows per slot.
LogicalResult verifyStagingBuffer(Operation *op, SmemBufferType buffer,
                                  int64_t rows, bool lowPrecision = false);
} // namespace mlir::gemm

#endif // GEMM_DIALECT_GEMM_IR_GEMMOPS_H
