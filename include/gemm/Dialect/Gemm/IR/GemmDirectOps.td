// Direct operand access (SM90 `schedule = direct`): tiles read from global
// memory with plain element loads and the accumulator written back with plain
// stores, at any alignment and through any pair of strides, so the kernel
// needs no TMA descriptor and no 16-byte row rule. Included by GemmOps.td;
// verifiers in GemmDirectOps.cpp. docs/SM90.md ("The direct kernel") says how
// gemm-materialize-sm90 builds a kernel from them.
//
// Every op of this file describes exactly which thread handles which
// element, so that a simulator can execute it: with T = `threads`, a
// thread's index is t = tid.x mod T, its warp w = t / 32 and lane l = t mod 32.

#ifndef GEMM_DIRECT_OPS_TD
#define GEMM_DIRECT_OPS_TD

def Gemm_FragmentType : Gemm_Type<"Fragment", "fragment"> {
  let summary = "a thread's share of a tile, one element per register";
  let description = [{
    `size` elements of a 16-bit float type held by one thread, as
    `gemm.direct.load` distributes a tile over the threads of a CTA (the op
    that makes a fragment says which tile element each one is). Each
    element has a register of its own, so a load can write it while other
    loads are in flight and a shared-memory store can read it without
    unpacking. Lowers to `!llvm.array<size x i16>`.

    Example: `!gemm.fragment<32 x bf16>`
  }];
  let parameters = (ins "int64_t":$size, "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $size `x` $elementType `>`";
  let genVerifyDecl = 1;
}

def Gemm_Fragment : Type<CPred<"::llvm::isa<::mlir::gemm::FragmentType>($_self)">,
    "register fragment", "::mlir::gemm::FragmentType">;

def Gemm_DirectLoadOp : Gemm_Op<"direct.load", [MemoryEffects<[MemRead]>]> {
  let summary = "masked element loads of a thread's share of a global tile into registers";
  let description = [{
    Reads a `tile_rows x tile_cols` tile of a matrix in global memory whose
    element (r, c) is at `base + r * row_stride + c * col_stride` (strides in
    elements, any values: a K-major A is `strides(lda, 1)`, an M-major one
    `strides(1, lda)`), starting at element (`row`, `col`), into the
    registers of `threads` threads. Element `e` of thread t's fragment (with
    W = threads / 32 warps and P = tile_cols / 32) is tile element

        (i, j) = (w + W * (e / P), l + 32 * (e mod P)),

    i.e. matrix element (min(row + i, rows - 1), col + j) when col + j <
    `cols`, else 0. Rows at or past `rows` repeat the last row: in a GEMM
    they only feed accumulator rows (of A) or columns (of B) that the
    epilogue does not write, so they need no zeros, and clamping them costs
    no predicate; columns past `cols` (the K tail) must be zeros and are.
    Consecutive lanes read consecutive columns, so with a unit column stride
    each warp-wide load reads 64 contiguous bytes. No element outside the
    bounds is read: a column past `cols` is read at column `col` of its row
    and replaced by 0, so no load is predicated.

    Preconditions (not checkable here; the runtime guarantees them for the
    kernels that use the op): `row` < `rows` and `col` < `cols`; the offset
    of every tile element from element (`row`, `col`), (tile_rows - 1) *
    row_stride + (tile_cols - 1) * col_stride, is below 2^31 (offsets inside
    the tile are 32-bit; the tile's first element is addressed in 64 bits);
    strides are non-negative.

    Lowers to one `ld.global.nc.b16` per element (the operands are read-only
    while the kernel runs) and a `selp` for the K tail; the fragment stays
    in registers until `gemm.direct.store_smem` writes it, so a kernel can
    issue the loads of the next k-block before the MMAs of the current one.

    Example (a 64 x 64 A tile of a K-major bf16 A, one warpgroup):
    ```mlir
    %frag = gemm.direct.load %a[%m0, %k0] strides(%lda, %one) bounds(%m, %k)
        tile(64 x 64) threads(128) : !llvm.ptr<1> -> !gemm.fragment<32 x bf16>
    ```
  }];
  let arguments = (ins Gemm_GlobalPointer:$base, I32:$row, I32:$col,
                       I64:$rowStride, I64:$colStride, I32:$rows, I32:$cols,
                       I64Attr:$tileRows, I64Attr:$tileCols, I64Attr:$threads);
  let results = (outs Gemm_Fragment:$fragment);
  let assemblyFormat = [{
    $base `[` $row `,` $col `]` `strides` `(` $rowStride `,` $colStride `)`
    `bounds` `(` $rows `,` $cols `)` `tile` `(` $tileRows `x` $tileCols `)`
    `threads` `(` $threads `)` attr-dict `:` qualified(type($base)) `->`
    qualified(type($fragment))
  }];
  let hasVerifier = 1;
}

def Gemm_DirectStoreSmemOp : Gemm_Op<"direct.store_smem",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "write the fragments of gemm.direct.load into a 128-byte-swizzled ring slot";
  let description = [{
    Thread t stores its fragment (of `threads` threads, the distribution of
    `gemm.direct.load` with the slot's rows and columns as the tile) into
    slot `slot` of the ring: tile element (i, j) goes to byte

        slot * stage_bytes + 128 * i + 16 * ((2 j / 16) xor (i mod 8)) + (2 j mod 16)

    of the buffer, the 128-byte-swizzled K-major layout that a TMA load with
    the 128-byte swizzle writes and `gemm.mma.sm90` reads (rows of 128
    bytes; the 16-byte chunk c of row i at chunk c xor (i mod 8)). A warp's
    store covers 64 contiguous bytes of one row, conflict free.

    Lowers to one `st.shared.b16` per element. The writes are generic-proxy
    writes: before a WGMMA reads the slot every writer must execute
    `fence.proxy.async.shared::cta`, and a barrier must order the writers
    before the WGMMA issuers.

    Example:
    ```mlir
    gemm.direct.store_smem %frag -> %ringA[%slot] threads(128)
        : !gemm.fragment<32 x bf16>, !gemm.smem<2 x 64 x 64 x bf16, swizzle = 128>
    ```
  }];
  let arguments = (ins Gemm_Fragment:$fragment, Gemm_SmemBuffer:$buffer,
                       I32:$slot, I64Attr:$threads);
  let assemblyFormat = [{
    $fragment `->` $buffer `[` $slot `]` `threads` `(` $threads `)` attr-dict
    `:` qualified(type($fragment)) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

def Gemm_AccumStoreDirectOp : Gemm_Op<"accum.store_direct",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "write a warpgroup's accumulator to a global matrix, masked, through any strides";
  let description = [{
    Every thread of the warpgroup (t = tid.x mod 128) writes its accumulator
    values straight to global memory. Value v of atom a of thread t (warp w,
    lane l) is accumulator element

        (r, c) = (64 a + 16 w + l / 4 + 8 ((v / 2) mod 2), 8 (v / 4) + 2 (l mod 4) + v mod 2),

    the WGMMA D fragment layout (PTX ISA, "Matrix fragments for
    wgmma.mma_async .m64nNk16"). It goes through the epilogue region (one
    f32 in, one `element_type` value out), else is rounded to
    `element_type`, and is stored at `base + (row + r) * row_stride +
    (col + c) * col_stride` (elements, 64-bit arithmetic) when row + r <
    `rows` and col + c < `cols`; elements outside are not written. Any
    alignment and any strides: a row-major C is `strides(ldc, 1)`, a
    column-major one `strides(1, ldc)`.

    Lowers to one predicated `st.global` of the element type
    (`st.global.b16` for bf16 and f16, `st.global.f32` for f32) per value.

    With `staged(%buffer)` the values go through shared memory first, so
    that a warp's global stores are contiguous: each warp of the CTA
    (w' = tid.x / 32, w = w' mod 4 its warp in the warpgroup) writes its 16
    rows of the accumulator, rounded, into rows [16 w', 16 w' + 16) of the
    buffer (`st.shared`), waits for its
    lanes (`bar.warp.sync`), and stores them with its lanes along C's
    contiguous dimension: along a row of a row-major C (`col_stride` 1,
    `columns` false), 32 consecutive elements per store, or along 16
    consecutive rows of a column-major one (`columns`). One warp store then
    covers 2 or 3 32-byte sectors of C instead of 8 rows' 8 bytes each,
    which made the L2 the direct kernel's bottleneck where C dominates (small
    K). The buffer holds the output type, no swizzle, one stage, at least 16
    rows per warp of the CTA and the accumulator's columns; its rows are
    padded by 16 bytes so that both phases are free of bank conflicts. Only
    this op touches it.

    Example:
    ```mlir
    gemm.accum.store_direct %acc -> %c[%m0, %n0] strides(%ldc, %one) bounds(%m, %n)
        : !gemm.accum<64 x 64 x f32>, !llvm.ptr<1> -> bf16
    gemm.accum.store_direct %acc -> %c[%m0, %n0] strides(%ldc, %one) bounds(%m, %n)
        staged(%stage : !gemm.smem<1 x 64 x 72 x bf16, swizzle = 0>)
        : !gemm.accum<64 x 64 x f32>, !llvm.ptr<1> -> bf16
    ```
  }];
  let arguments = (ins Gemm_Accumulator:$accumulator, Gemm_GlobalPointer:$base,
                       I32:$row, I32:$col, I64:$rowStride, I64:$colStride,
                       I32:$rows, I32:$cols, TypeAttr:$elementType,
                       Optional<Gemm_SmemBuffer>:$staging, UnitAttr:$columns);
  let regions = (region AnyRegion:$epilogue);
  let assemblyFormat = [{
    $accumulator `->` $base `[` $row `,` $col `]` `strides` `(` $rowStride `,`
    $colStride `)` `bounds` `(` $rows `,` $cols `)`
    (`staged` `(` $staging^ `:` qualified(type($staging)) `)`)? (`columns` $columns^)?
    attr-dict `:` type($accumulator) `,` qualified(type($base)) `->`
    $elementType ($epilogue^)?
  }];
  let hasVerifier = 1;
}

#endif // GEMM_DIRECT_OPS_TD
