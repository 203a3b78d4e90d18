//===- GemmSM100Ops.cpp - SM100 ops: TMEM, tcgen05 MMA, CLC --------------===//
//
// Verifiers of the SM100 op families and the arch-legality helper shared
// with the SM90 ops. The op classes themselves are generated into
// GemmOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "gemm/Dialect/Gemm/IR/GemmOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::gemm;

//===----------------------------------------------------------------------===//
// Arch legality
//===----------------------------------------------------------------------===//

/// The gemm arch a chip name belongs to, if any. tcgen05 and CLC exist on the
/// whole SM100 family's arch-specific targets (sm_100a/f, sm_101a, sm_103a,
/// sm_110a), WGMMA only on sm_90a.
static std::optional<Arch> getArchOfChip(StringRef chip) {
  if (auto arch = symbolizeArch(chip))
    return arch;
  if (chip == "sm_100f" || chip == "sm_101a" || chip == "sm_101f" ||
      chip == "sm_103a" || chip == "sm_103f" || chip == "sm_110a" ||
      chip == "sm_110f")
    return Arch::sm_100a;
  return std::nullopt;
}

LogicalResult mlir::gemm::verifyArch(Operation *op, Arch required) {
  // The kernel's own gemm.arch (set by the materialize passes) and every
  // NVVM target of its gpu.module must support the op: each target gets its
  // own binary, and the NVVM verifier checks the op against the target's
  // chip whatever gemm.arch says.
  SmallVector<StringRef> chips;
  if (auto func = op->getParentOfType<gpu::GPUFuncOp>()) {
    if (auto arch = func->getAttrOfType<StringAttr>("gemm.arch"))
      chips.push_back(arch.getValue());
  }
  if (auto module = op->getParentOfType<gpu::GPUModuleOp>()) {
    if (ArrayAttr targets = module.getTargetsAttr())
      for (Attribute target : targets)
        if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
          chips.push_back(nvvm.getChip());
  }
  for (StringRef chip : chips) {
    std::optional<Arch> arch = getArchOfChip(chip);
    if (arch && *arch == required)
      continue;
    return op->emitOpError("needs ")
           << stringifyArch(required) << ", but this kernel targets " << chip;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

static LogicalResult verifyCtaGroup(Operation *op, int64_t ctaGroup) {
  if (ctaGroup != 1 && ctaGroup != 2)
    return op->emitOpError("cta_group must be 1 or 2, got ") << ctaGroup;
  return success();
}

/// TMEM is allocated in power-of-two column counts from 32 to all 512.
static LogicalResult verifyTmemColumns(Operation *op, int64_t columns) {
  if (columns < 32 || columns > 512 || !llvm::isPowerOf2_64(columns))
    return op->emitOpError("TMEM columns must be a power of two in [32, 512], "
                           "got ")
           << columns;
  return success();
}

/// The shared-memory word tcgen05.alloc writes the TMEM address to.
static LogicalResult verifyAddressSlot(Operation *op, SmemBufferType slot) {
  if (!slot.getElementType().isSignlessInteger(32) || slot.getSwizzle() != 0)
    return op->emitOpError("the TMEM address slot must be an unswizzled i32 "
                           "buffer (e.g. !gemm.smem<1 x 1 x 1 x i32, swizzle "
                           "= 0>), got ")
           << slot;
  return success();
}

/// A cluster-launch-control response is one naturally aligned 16-byte word
/// per stage.
static LogicalResult verifyResponseBuffer(Operation *op,
                                          SmemBufferType response) {
  if (response.getStageBytes() != 16 || response.getSwizzle() != 0)
    return op->emitOpError("CLC responses need unswizzled 16-byte stages "
                           "(e.g. !gemm.smem<2 x 1 x 4 x i32, swizzle = 0>), "
                           "got ")
           << response;
  return success();
}

//===----------------------------------------------------------------------===//
// TmemType
//===----------------------------------------------------------------------===//

LogicalResult TmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t stages, int64_t rows, int64_t cols,
                               Type elementType) {
  if (!elementType.isF32())
    return emitError() << "TMEM accumulators are f32, got " << elementType;
  if (stages < 1)
    return emitError() << "TMEM accumulator needs at least one stage, got "
                       << stages;
  if (rows != 64 && rows != 128)
    return emitError() << "TMEM accumulator rows (the MMA's M per CTA) must "
                          "be 64 or 128, got "
                       << rows;
  if (cols < 8 || cols > 256 || cols % 8 != 0)
    return emitError() << "TMEM accumulator columns (the MMA's N) must be a "
                          "multiple of 8 in [8, 256], got "
                       << cols;
  // A quotient, not stages x cols, which could overflow.
  if (stages > 512 / cols)
    return emitError() << stages << " stages of " << cols
                       << " columns exceed the 512 TMEM columns";
  return success();
}

int64_t TmemType::getAllocColumns() const {
  return std::max<int64_t>(32, llvm::PowerOf2Ceil(getColumns()));
}

//===----------------------------------------------------------------------===//
// TMEM ops
//===----------------------------------------------------------------------===//

LogicalResult TmemAllocOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_100a)) ||
      failed(verifyCtaGroup(*this, getCtaGroupAttr().getInt())) ||
      failed(verifyTmemColumns(*this, getColumnsAttr().getInt())))
    return failure();
  return verifyAddressSlot(*this, getSlot().getType());
}

LogicalResult TmemRelinquishOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_100a)))
    return failure();
  return verifyCtaGroup(*this, getCtaGroupAttr().getInt());
}

LogicalResult TmemAddressOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_100a)))
    return failure();
  return verifyAddressSlot(*this, getSlot().getType());
}

LogicalResult TmemDeallocOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_100a)) ||
      failed(verifyCtaGroup(*this, getCtaGroupAttr().getInt())) ||
      failed(verifyTmemColumns(*this, getColumnsAttr().getInt())))
    return failure();
  TmemType type = getTmem().getType();
  if (getColumnsAttr().getInt() < type.getColumns())
    return emitOpError("frees ")
           << getColumnsAttr().getInt() << " columns, fewer than the "
           << type.getColumns()
           << " the accumulator spans: free what was allocated (columns("
           << type.getAllocColumns() << "))";
  return success();
}

LogicalResult TmemFenceOp::verify() { return verifyArch(*this, Arch::sm_100a); }

LogicalResult TmemStoreSmemOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_100a)))
    return failure();
  TmemType tmem = getTmem().getType();
  SmemBufferType buffer = getBuffer().getType();
  if (tmem.getRows() != 128)
    return emitOpError("reads the 128-lane accumulator layout (M = 128 per "
                       "CTA), but the accumulator has ")
           << tmem.getRows() << " rows";
  // A warp moves its 32 TMEM lanes into one slot.
  if (failed(verifyStagingBuffer(*this, buffer, 32)))
    return failure();
  int64_t width = buffer.getCols();
  auto col = static_cast<int64_t>(getCol());
  if (col < 0 || col % width != 0 || col + width > tmem.getCols())
    return emitOpError("col ")
           << col << " must be a multiple of " << width
           << " inside the accumulator's " << tmem.getCols() << " columns";
  return verifyEpilogueRegion(*this, getEpilogue(), tmem.getElementType(),
                              buffer.getElementType());
}

LogicalResult TmemLoadOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_100a)))
    return failure();
  TmemType type = getTmem().getType();
  if (type.getRows() != 128)
    return emitOpError("loads the 128-lane accumulator layout (M = 128 per "
                       "CTA), but the accumulator has ")
           << type.getRows() << " rows";
  int64_t count = getResult().getType().getNumElements();
  if (count > 128 || !llvm::isPowerOf2_64(count))
    return emitOpError("loads a power of two in [1, 128] columns per thread "
                       "(tcgen05.ld .32x32b.x1 to .x128), got ")
           << count;
  int64_t col = getColAttr().getInt();
  if (col < 0 || col + count > type.getCols())
    return emitOpError("columns [")
           << col << ", " << col + count << ") are outside the accumulator's "
           << type.getCols() << " columns";
  return success();
}

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

LogicalResult WarpRolesOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_100a)))
    return failure();
  if (getEpilogueWarps() != 4)
    return emitOpError("needs 4 epilogue warps, one per TMEM lane quarter, "
                       "got ")
           << getEpilogueWarps();
  for (Region *region : {&getLoad(), &getMma(), &getScheduler()})
    if (region->front().getNumArguments() != 0)
      return emitOpError("load, mma and scheduler regions take no arguments");
  Block &epilogue = getEpilogue().front();
  if (epilogue.getNumArguments() != 1 ||
      !epilogue.getArgument(0).getType().isInteger(32))
    return emitOpError("epilogue region must take the epilogue warp index "
                       "(i32)");
  return success();
}

//===----------------------------------------------------------------------===//
// MMA
//===----------------------------------------------------------------------===//

int64_t MmaSm100Op::getM() {
  return getA().getType().getRows() * getCtaGroupAttr().getInt();
}

int64_t MmaSm100Op::getN() { return getTmem().getType().getCols(); }

int64_t MmaSm100Op::getInstrK() {
  return 32 / getElementBytes(getA().getType().getElementType());
}

/// The dense tcgen05.mma shapes for kind::f16 and kind::f8f6f4 (PTX ISA,
/// tcgen05 "Matrix Shape" table), in the N steps CUTLASS uses.
static LogicalResult verifyMmaShape(Operation *op, int64_t ctaGroup, int64_t m,
                                    int64_t n) {
  int64_t step, minN;
  if (ctaGroup == 1 && m == 64) {
    step = 8;
    minN = 8;
  } else if (ctaGroup == 1 && m == 128) {
    step = 16;
    minN = 16;
  } else if (ctaGroup == 2 && m == 128) {
    step = 32;
    minN = 32;
  } else if (ctaGroup == 2 && m == 256) {
    step = 16;
    minN = 16;
  } else {
    return op->emitOpError("illegal tcgen05.mma shape: M = ")
           << m << " with cta_group " << ctaGroup << "; M must be "
           << (ctaGroup == 1 ? "64 or 128" : "128 or 256")
           << " (A slot rows * cta_group)";
  }
  if (n < minN || n > 256 || n % step != 0)
    return op->emitOpError("illegal tcgen05.mma shape: N = ")
           << n << " with M = " << m << " and cta_group " << ctaGroup
           << "; N must be a multiple of " << step << " in [" << minN
           << ", 256]";
  return success();
}

LogicalResult MmaSm100Op::verify() {
  if (failed(verifyArch(*this, Arch::sm_100a)) ||
      failed(verifyCtaGroup(*this, getCtaGroupAttr().getInt())))
    return failure();
  SmemBufferType a = getA().getType(), b = getB().getType();
  TmemType tmem = getTmem().getType();
  if (a.getElementType() != b.getElementType())
    return emitOpError("A and B element types differ: ")
           << a.getElementType() << " vs " << b.getElementType();
  if (!isSupportedInputType(a.getElementType()))
    return emitOpError("tcgen05 MMA here takes bf16, f16 (kind::f16) or "
                       "f8E4M3FN, f8E5M2 (kind::f8f6f4) operands, got ")
           << a.getElementType();
  if (a.getSwizzle() != 128 || b.getSwizzle() != 128)
    return emitOpError("tcgen05 MMA operands must be 128-byte swizzled "
                       "K-major tiles");
  // Same element type and 128-byte rows: A and B k-blocks agree.
  if (a.getStages() != b.getStages())
    return emitOpError("A and B rings must have the same number of stages");
  int64_t ctaGroup = getCtaGroupAttr().getInt();
  if (failed(verifyMmaShape(*this, ctaGroup, getM(), getN())))
    return failure();
  if (b.getRows() * ctaGroup != getN())
    return emitOpError("B slot has ")
           << b.getRows() << " rows but the accumulator's N = " << getN()
           << (ctaGroup == 2 ? " needs N / 2 rows per CTA of the pair"
                             : " needs N rows");
  if (tmem.getRows() != a.getRows())
    return emitOpError("accumulator has ")
           << tmem.getRows() << " rows but the A slot (M per CTA) has "
           << a.getRows();
  return success();
}

LogicalResult MmaSm100CommitOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_100a)))
    return failure();
  return verifyCtaGroup(*this, getCtaGroupAttr().getInt());
}

//===----------------------------------------------------------------------===//
// Cluster launch control
//===----------------------------------------------------------------------===//

LogicalResult ClcTryCancelOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_100a)))
    return failure();
  return verifyResponseBuffer(*this, getResponse().getType());
}

LogicalResult ClcQueryOp::verify() {
  if (failed(verifyArch(*this, Arch::sm_100a)))
    return failure();
  return verifyResponseBuffer(*this, getResponse().getType());
}
