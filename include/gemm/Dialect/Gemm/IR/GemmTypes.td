#ifndef GEMM_TYPES_TD
#define GEMM_TYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "gemm/Dialect/Gemm/IR/GemmDialect.td"

class Gemm_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Gemm_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Gemm_TmaDescriptorType : Gemm_Type<"TmaDescriptor", "tma_desc"> {
  let summary = "a TMA tensor map (CUtensorMap) of a 2-D global tensor or a batch of them";
  let description = [{
    A 128-byte tensor map created on the host by `cuTensorMapEncodeTiled` and
    passed to the kernel by value (a `__grid_constant__` parameter). The type
    carries what the kernel relies on: the element type, the box (inner
    dimension first) and the shared-memory swizzle in bytes (0, 32, 64, 128).
    The host side creates the descriptor from the kernel bundle's manifest.
    A rank-3 box `[inner, outer, 1]` describes a batch of matrices (the third
    dimension is the batch entry, one per box): the descriptor of a batched
    kernel, whose TMA ops take a batch coordinate.

    Example: `!gemm.tma_desc<bf16, box = [64, 128], swizzle = 128>`,
    `!gemm.tma_desc<bf16, box = [64, 128, 1], swizzle = 128>`
  }];
  let parameters = (ins "::mlir::Type":$elementType,
                        ArrayRefParameter<"int64_t">:$box,
                        "int64_t":$swizzle);
  let assemblyFormat = "`<` $elementType `,` `box` `=` `[` $box `]` `,` `swizzle` `=` $swizzle `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes one load of the full box delivers to shared memory.
    int64_t getBoxBytes() const;
    /// 2, or 3 for a batch of matrices.
    int64_t getRank() const { return getBox().size(); }
  }];
}

def Gemm_SmemBufferType : Gemm_Type<"SmemBuffer", "smem"> {
  let summary = "a ring of 2-D tiles in shared memory";
  let description = [{
    `stages` tiles of `rows x cols` elements, stored with the given swizzle
    (bytes; 128 means the 128-byte TMA / WGMMA swizzle, which needs
    1024-byte aligned tiles). A plain staging buffer is a ring of one stage.

    `major` says which dimension is contiguous. `k` (the default): each of
    the `rows` rows holds its `cols` elements, `cols * sizeof(elem)` bytes
    (one swizzle span when swizzled). `mn` (an MN-major operand tile:
    `rows` of M or N, `cols` of K): the tile is `rows / span` blocks of
    `span = swizzle / sizeof(elem)` rows each, block after block; a block
    stores its K index `k` as one `swizzle`-byte line of the block's `span`
    rows, lines in K order. This is the layout a TMA box of `span` x `cols`
    elements (inner dimension M or N) writes, and WGMMA's MN-major canonical
    layout with the leading byte offset `cols * swizzle` (block to block)
    and the stride byte offset `8 * swizzle` (8 K lines to the next 8).

    Example: `!gemm.smem<4 x 128 x 64 x bf16, swizzle = 128>`,
    `!gemm.smem<4 x 256 x 64 x bf16, swizzle = 128, major = mn>`
  }];
  let parameters = (ins "int64_t":$stages, "int64_t":$rows, "int64_t":$cols,
                        "::mlir::Type":$elementType, "int64_t":$swizzle,
                        DefaultValuedParameter<"::mlir::gemm::Major",
                            "::mlir::gemm::Major::k">:$major);
  let assemblyFormat = [{
    `<` $stages `x` $rows `x` $cols `x` $elementType `,` `swizzle` `=` $swizzle
    (`,` `major` `=` $major^)? `>`
  }];
  let skipDefaultBuilders = 1;
  let builders = [
    TypeBuilder<(ins "int64_t":$stages, "int64_t":$rows, "int64_t":$cols,
                     "::mlir::Type":$elementType, "int64_t":$swizzle,
                     CArg<"::mlir::gemm::Major", "::mlir::gemm::Major::k">:$major), [{
      return $_get($_ctxt, stages, rows, cols, elementType, swizzle, major);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getStageBytes() const;
    int64_t getTotalBytes() const { return getStages() * getStageBytes(); }
    bool isMNMajor() const { return getMajor() == ::mlir::gemm::Major::mn; }
    /// MN-major: the rows of one block (one swizzle span of elements).
    int64_t getSpanRows() const;
    /// MN-major: the bytes of one block of `getSpanRows()` rows.
    int64_t getBlockBytes() const;
  }];
}

def Gemm_PipelineType : Gemm_Type<"Pipeline", "pipeline"> {
  let summary = "a producer/consumer ring of full/empty mbarrier pairs";
  let description = [{
    `stages` slots, each guarded by a `full` mbarrier (producers arrive, with
    the transaction bytes they expect) and an `empty` mbarrier (consumers
    arrive once they are done reading the slot). `producers` and `consumers`
    are the arrival counts of one phase of each barrier; with TMA multicast
    the empty count includes the consumers of every CTA whose loads write
    into this CTA's slots. Positions in the ring are counted with an `i32`
    iteration number: slot = n mod stages, phase = (n / stages) mod 2, so no
    raw parity bits appear in the IR.

    Example: `!gemm.pipeline<stages = 4, producers = 1, consumers = 2>`
  }];
  let parameters = (ins "int64_t":$stages, "int64_t":$producers,
                        "int64_t":$consumers);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Shared-memory bytes of the barriers (full then empty, 8 bytes each).
    int64_t getBarrierBytes() const { return 16 * getStages(); }
  }];
}

def Gemm_AccumulatorType : Gemm_Type<"Accumulator", "accum"> {
  let summary = "MMA accumulator fragments held in registers";
  let description = [{
    The `rows x cols` accumulator tile of one warpgroup, distributed over its
    128 threads in the WGMMA register layout (a 64-row atom per
    `wgmma.m64nNk16`). Lowers to an LLVM struct of per-atom structs.

    Example: `!gemm.accum<64 x 256 x f32>`
  }];
  let parameters = (ins "int64_t":$rows, "int64_t":$cols,
                        "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $rows `x` $cols `x` $elementType `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getAtoms() const { return getRows() / 64; }
    /// Registers one thread holds for one 64-row atom.
    int64_t getValuesPerAtom() const { return getCols() / 2; }
  }];
}

#endif // GEMM_TYPES_TD
