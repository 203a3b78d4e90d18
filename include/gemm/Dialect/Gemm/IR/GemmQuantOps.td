#ifndef GEMM_QUANT_OPS_TD
#define GEMM_QUANT_OPS_TD

// Scale factors of low-precision GEMMs (docs/LowPrecision.md). Included from
// GemmOps.td. Scale tensors are read-only while a kernel runs, so reading
// them is pure (they may be CSE'd and hoisted like constants); they are f32
// vectors in global memory, passed as kernel parameters.

def Gemm_ScaleLoadOp : Gemm_Op<"scale.load", [Pure]> {
  let summary = "read one f32 scale factor from global memory";
  let description = [{
    `ld.global.nc.f32` of element `index` of the f32 scale tensor at `ptr`
    (read through the non-coherent path: scales do not change while the
    kernel runs). A per-tensor scale is element 0; a block scale of B is
    the element of its 128 x 128 block.

    Example: `%s = gemm.scale.load %scales[%i] : !llvm.ptr<1>`
  }];
  let arguments = (ins Gemm_GlobalPointer:$ptr, I32:$index);
  let results = (outs F32:$result);
  let assemblyFormat = "$ptr `[` $index `]` attr-dict `:` qualified(type($ptr))";
}

def Gemm_ScaleRowsOp : Gemm_Op<"scale.rows", [Pure]> {
  let summary = "the scale factors of the accumulator rows a thread holds";
  let description = [{
    For an accumulator of `N / 2` 64-row atoms (the result has N elements),
    each thread of the warpgroup loads the f32 scales of its rows: in atom
    a, rows 16 w + l / 4 and 16 w + l / 4 + 8 (warp w, lane l), the rows of
    the WGMMA accumulator layout. Accumulator row r reads element
    `base + min(first + r, end - 1)` of `ptr` (`base` is 0 when absent):
    `first` is the element of the accumulator's row 0, and `end` bounds the
    reads, so rows past the matrix (which the TMA store clips) read the last
    valid scale instead of past the tensor. Element 2 a + h of the result is
    the scale of row 64 a + 16 w + l / 4 + 8 h. A mainloop that reads one
    slice of a scale tensor per k-block passes the slice's offset as `base`
    and keeps `first` and `end` the same for the whole tile, so the rows'
    bounds are computed once per tile instead of once per k-block.

    Example: `%rs = gemm.scale.rows %scaleA[%row0] below(%m) : !llvm.ptr<1> -> vector<2xf32>`,
    `%rs = gemm.scale.rows %scaleA + %slice[%row0] below(%m) : ...`
  }];
  let arguments = (ins Gemm_GlobalPointer:$ptr, Optional<I32>:$base,
                   I32:$first, I32:$end);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $ptr (`+` $base^)? `[` $first `]` `below` `(` $end `)` attr-dict `:`
    qualified(type($ptr)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Gemm_ScaleStageOp : Gemm_Op<"scale.stage", [Gemm_SideEffects]> {
  let summary = "one warp copies a tile's row scales into a ring slot, arriving on its full barrier";
  let description = [{
    Run by the 32 lanes of one warp. Element r of slot `slot` of the
    one-row f32 ring `buffer` receives element
    `base + min(first + r, end - 1)` of the f32 tensor at `ptr` (as
    `gemm.scale.rows` reads it): lane l copies the 16-byte groups
    g = l, l + 32, ... of the slot (elements 4 g to 4 g + 3) with
    `cp.async.ca.shared.global` of 4 bytes each (the tensor's rows need
    not be 16-byte aligned), then arrives on the
    full barrier of the pipeline's slot for `iteration` with
    `cp.async.mbarrier.arrive.noinc.shared::cta.b64`, an arrival that
    happens once its copies have landed. The stage's full barrier thus
    takes 32 arrivals from this warp besides its other producers' (the
    pipeline's `producers` counts them), and a consumer that waited for
    the stage reads the scales with `gemm.scale.rows_smem`.

    Block-wise fp8 kernels stage the A scales of each k-block this way, so
    that the consumer warps, whose issue slots bound the kernel, read them
    from shared memory instead of loading them from global memory
    (bench/results/2026-11-28-h200-blockfp8-profile).

    Example:
    ```mlir
    gemm.scale.stage %scaleA + %slice[%row0] below(%m) -> %ringS[%slot]
        barrier %p[%n] : !llvm.ptr<1>, !gemm.smem<5 x 1 x 128 x f32, swizzle = 0>,
        !gemm.pipeline<stages = 5, producers = 33, consumers = 2>
    ```
  }];
  let arguments = (ins Gemm_GlobalPointer:$ptr, I32:$base, I32:$first,
                   I32:$end, Gemm_SmemBuffer:$buffer, I32:$slot,
                   Gemm_Pipeline:$pipeline, I32:$iteration);
  let assemblyFormat = [{
    $ptr `+` $base `[` $first `]` `below` `(` $end `)` `->` $buffer `[` $slot `]`
    `barrier` $pipeline `[` $iteration `]` attr-dict `:` qualified(type($ptr))
    `,` type($buffer) `,` type($pipeline)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The arrivals of one staging warp on a stage's full barrier.
    static constexpr int64_t kArrivals = 32;
  }];
}

def Gemm_ScaleRowsSmemOp : Gemm_Op<"scale.rows_smem", [MemoryEffects<[MemRead]>]> {
  let summary = "the row scales a thread holds, read from a ring slot";
  let description = [{
    `gemm.scale.rows` from shared memory: element 2 a + h of the result is
    element `first + 64 a + 16 w + l / 4 + 8 h` (warp w of the warpgroup,
    lane l) of slot `slot` of the one-row f32 ring `buffer`, read with
    `ld.shared.f32`: the scales of the accumulator rows the thread holds
    when the slot's element 0 belongs to the tile's row 0 and `first` is
    the accumulator's first row in the tile. The slot must be filled
    (`gemm.scale.stage`) and its stage waited for; it is read before the
    stage is released.

    Example: `%rs = gemm.scale.rows_smem %ringS[%slot, %aRow] : !gemm.smem<5 x 1 x 128 x f32, swizzle = 0> -> vector<2xf32>`
  }];
  let arguments = (ins Gemm_SmemBuffer:$buffer, I32:$slot, I32:$first);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $buffer `[` $slot `,` $first `]` attr-dict `:` type($buffer) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Gemm_ScaleColsOp : Gemm_Op<"scale.cols", [Pure]> {
  let summary = "the scale factors of the accumulator columns a thread holds";
  let description = [{
    For `4 N` consecutive accumulator columns (the result has N elements),
    each thread of the warpgroup loads the f32 scales of its columns: in
    every 8-column group g, columns 8 g + 2 (l mod 4) and 8 g + 2 (l mod 4)
    + 1 (lane l), the columns of the WGMMA accumulator layout. Column c
    reads element `min(first + c, end - 1)` of `ptr`. Element 2 g + i of the
    result is the scale of column 8 g + 2 (l mod 4) + i.

    Example: `%cs = gemm.scale.cols %scaleB[%col0] below(%n) : !llvm.ptr<1> -> vector<16xf32>`
  }];
  let arguments = (ins Gemm_GlobalPointer:$ptr, I32:$first, I32:$end);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $ptr `[` $first `]` `below` `(` $end `)` attr-dict `:`
    qualified(type($ptr)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Gemm_AccumScaleOp : Gemm_Op<"accum.scale", [Pure, AttrSizedOperandSegments]> {
  let summary = "multiply accumulator values by their row, column and tensor scales";
  let description = [{
    Returns the accumulator as f32 (an i32 accumulator is converted, exactly
    up to 2^24) with the thread's values [first, first + count) (all by
    default; flattened over the atoms, as in `gemm.accum.load_add_global`)
    multiplied by:
    - `rows(%r)`: the scale of the value's row, from `gemm.scale.rows`
      (one element per row the thread holds, 2 per atom);
    - `cols(%c)`: the scale of the value's column, from `gemm.scale.cols`
      over exactly the columns of the values (which must then be whole
      8-column groups of one atom: count / 2 elements);
    - `by(%s0, ...)`: f32 scalars, the i-th covering the i-th of as many
      equal column blocks of the accumulator (one: the whole of it).
    Values outside the range are only converted. The epilogue scales each
    sub-tile just before it is staged, so the scales of only that
    sub-tile's columns are in registers.

    Example:
    ```mlir
    %y = gemm.accum.scale %acc values(0, 32) rows(%rs : vector<2xf32>)
        cols(%cs : vector<16xf32>) by(%s)
        : !gemm.accum<64 x 256 x i32> -> !gemm.accum<64 x 256 x f32>
    ```
  }];
  let arguments = (ins Gemm_Accumulator:$accumulator,
                       Optional<VectorOfRankAndType<[1], [F32]>>:$rowScales,
                       Optional<VectorOfRankAndType<[1], [F32]>>:$colScales,
                       Variadic<F32>:$scalars,
                       OptionalAttr<I64Attr>:$first,
                       OptionalAttr<I64Attr>:$count);
  let results = (outs Gemm_Accumulator:$result);
  let assemblyFormat = [{
    $accumulator (`values` `(` $first^ `,` $count `)`)?
    (`rows` `(` $rowScales^ `:` type($rowScales) `)`)?
    (`cols` `(` $colScales^ `:` type($colScales) `)`)?
    (`by` `(` $scalars^ `)`)?
    attr-dict `:` type($accumulator) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The values [first, first + count) the op scales (all by default).
    std::pair<int64_t, int64_t> getValueRange();
  }];
}

def Gemm_AccumPromoteOp : Gemm_Op<"accum.promote", [Pure, AttrSizedOperandSegments,
    AllTypesMatch<["accumulator", "result"]>]> {
  let summary = "add scaled WGMMA partial sums into an f32 accumulator";
  let description = [{
    `accumulator + partial * scale`, value by value with `fma.rn.f32`: the
    promotion of fp8 WGMMA partial sums (which Hopper accumulates with fewer
    bits than f32) into a separate f32 accumulator. The scale of a value is
    the product of its row's element of `rows(%r)` (from
    `gemm.scale.rows`; block-wise scales of A for this k-block) and of
    `by(%s0, ...)`, the i-th scalar covering the i-th of as many equal
    column blocks of the partial sums (block-wise scales of B for this
    k-block); 1 without them. The partial sums must be complete
    (`gemm.wgmma.wait pending(0)`).

    The partial sums have the accumulator's type, or with `cols(c)` its
    rows and fewer columns: they are added to the accumulator's columns
    [c, c + their columns) (a column slice, `gemm.mma.sm90 ... cols(c)`),
    c a multiple of 8; the other columns are unchanged.

    Example:
    ```mlir
    %acc1 = gemm.accum.promote %partial, %acc0 rows(%ra : vector<2xf32>) by(%sb)
        : !gemm.accum<64 x 128 x f32>
    %acc2 = gemm.accum.promote %half, %acc1 cols(128)
        : !gemm.accum<64 x 128 x f32> into !gemm.accum<64 x 256 x f32>
    ```
  }];
  let arguments = (ins Gemm_Accumulator:$partial, Gemm_Accumulator:$accumulator,
                       Optional<VectorOfRankAndType<[1], [F32]>>:$rowScales,
                       Variadic<F32>:$scalars, OptionalAttr<I64Attr>:$col);
  let results = (outs Gemm_Accumulator:$result);
  let assemblyFormat = [{
    $partial `,` $accumulator (`cols` `(` $col^ `)`)?
    (`rows` `(` $rowScales^ `:` type($rowScales) `)`)?
    (`by` `(` $scalars^ `)`)? attr-dict `:`
    custom<SliceTypes>(type($partial), type($accumulator))
  }];
  let extraClassDeclaration = [{
    /// The accumulator's first column the partial sums go to.
    int64_t getColOffset() { return getCol().value_or(0); }
  }];
  let hasVerifier = 1;
}

#endif // GEMM_QUANT_OPS_TD
