//===- QuantBuilder.h - scales of low-precision SM90 kernels -*- C++ -*-===//
//
// What a low-precision (fp8, int8, tf32) gemm.matmul adds to the SM90 kernel:
// its scale parameters, the promotion of fp8 partial sums into an f32
// accumulator (with block-wise scales), and the scaling of each epilogue
// sub-tile. Kept apart from MaterializeSM90.cpp, which calls it at a few
// points; docs/LowPrecision.md describes the numerics.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_DIALECT_GEMM_TRANSFORMS_QUANTBUILDER_H
#define GEMM_LIB_DIALECT_GEMM_TRANSFORMS_QUANTBUILDER_H

#include "KernelBuilder.h"
#include "gemm/Bundle/Accumulators.h"
#include "gemm/Dialect/Gemm/IR/WgmmaTypes.h"

namespace mlir::gemm {

/// The low-precision part of an SM90 kernel's shape, from its matmul.
struct QuantPlan {
  WgmmaOperands mma;
  /// The accumulator element type: f32, or i32 for 8-bit integers.
  Type accType;
  ScaleMode scaleA = ScaleMode::none, scaleB = ScaleMode::none;
  /// The output has an output scale and an amax (fp8 outputs).
  bool fp8Output = false;
  /// fp8 partial sums are promoted into a second, f32 accumulator every
  /// `promoteEvery` k-blocks (false: accumulated in the WGMMA accumulator).
  bool promote = false;
  int64_t promoteEvery = 1;

  bool blockwise() const { return scaleA == ScaleMode::block; }
  /// The epilogue converts or scales the accumulator before staging it.
  bool scalesEpilogue(Type outputType) const;
  /// Pointer parameters after the kernel's others (scale of A, of B, output
  /// scale, amax: those the kernel has), and their manifest entries.
  SmallVector<Type> paramTypes(MLIRContext *ctx) const;
  SmallVector<::gemm::bundle::Param> manifestParams() const;
  /// The accumulator registers of one consumer thread holding `accRows` x
  /// `bn` of `consumers` warpgroups' tile, and the slices its promotion
  /// takes (bundle::accumulatorPlan).
  ::gemm::bundle::AccumulatorPlan accumulatorPlan(int64_t accRows, int64_t bn,
                                                  int64_t consumers) const;
};

/// Reads the low-precision shape of `op` (types verified by the matmul).
QuantPlan planQuant(MatmulOp op);

/// Builds the scale loads and arithmetic of one consumer warpgroup.
class QuantBuilder {
public:
  QuantBuilder(KernelBuilder &kb, const QuantPlan &plan)
      : kb(kb), b(kb.b), loc(kb.loc), plan(plan) {}

  /// The scale parameters from the kernel's block arguments, the first at
  /// `first`.
  void readArguments(Block &entry, unsigned first);
  /// Loads what is the same for every tile (per-tensor scales, the output
  /// scale); call once per consumer, before its tile loop.
  void loadInvariants();

  /// The partial sums promoted into the f32 accumulator `acc`, into its
  /// columns from `col` on where they are a column slice; block-wise, scaled
  /// by `blockScales`: their k-block's row scales (readRowScales) then the B
  /// scales of their columns (loadBlockScalesB).
  Value promote(Value partial, Value acc, ValueRange blockScales = {},
                int64_t col = 0);
  /// Block-wise only: copies the A scales of k-block `kBlock` for the
  /// tile's rows from `originM` into slot `slot` of the scale ring `ring`,
  /// arriving on the full barrier of `pipeline` for `iteration`
  /// (gemm.scale.stage; run by one warp of the producer warpgroup).
  void stageRowScales(Value kBlock, Value originM, Value ring, Value slot,
                      Value pipeline, Value iteration);
  /// Block-wise only: the A scales of the consumer's accumulator rows
  /// [aRow, aRow + 64 accAtoms) of the tile, read from slot `slot` of the
  /// scale ring after the stage was waited for and before it is released
  /// (gemm.scale.rows_smem).
  Value readRowScales(Value ring, Value slot, Value aRow, int64_t accAtoms);
  /// Block-wise only (empty otherwise): issues the loads of the B block
  /// scales of k-block `kBlock` for the bn columns from `originN`: one for a
  /// tile of up to 128 columns, else one per 128 columns, or per 64 when bn
  /// is not a multiple of 128, in the order of the tile's columns. The
  /// mainloop loads them a k-block ahead of their promotion so that their
  /// latency hides behind a whole k-block's MMAs.
  SmallVector<Value> loadBlockScalesB(Value kBlock, Value originN, int64_t bn);

  /// Per tile: the row scales of A of rows [rowOrigin, ...) (row-wise A).
  void beginTile(Value rowOrigin, int64_t accAtoms);
  /// The column scales (per-column B) of the epilogue sub-tile of columns
  /// [col, col + cols) of the tile at column `originN`, or null. Loaded
  /// before the sub-tile waits for its staging slot, which hides their
  /// latency.
  Value loadColumnScales(int64_t col, int64_t cols, Value originN);
  /// That sub-tile of atom `atom`: `acc` converted (i32) and scaled by its
  /// row, column (`colScales`) and tensor scales, as f32; or `acc` itself
  /// when nothing is to be done.
  Value scaleSubTile(Value acc, int64_t atom, int64_t col, int64_t cols,
                     Value colScales);
  /// The output scale and amax pointer for the staging of an fp8 output
  /// (null otherwise).
  Value outputScale() const { return outScale; }
  Value amaxPointer() const { return amax; }

private:
  KernelBuilder &kb;
  OpBuilder &b;
  Location loc;
  const QuantPlan &plan;
  Value scalesA, scalesB, scalesC, amax;
  /// The product of the per-tensor scales (null: none), the output scale.
  Value tensorScale, outScale;
  /// Row scales of the current tile (row-wise A).
  Value tileRowScales;
};

} // namespace mlir::gemm

#endif // GEMM_LIB_DIALECT_GEMM_TRANSFORMS_QUANTBUILDER_H
