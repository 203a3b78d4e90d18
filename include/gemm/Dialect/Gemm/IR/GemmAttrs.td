#ifndef GEMM_ATTRS_TD
#define GEMM_ATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "gemm/Dialect/Gemm/IR/GemmEnums.td"

// `[a, b, c]` integer lists.
class Gemm_ShapeParameter<string desc> : ArrayRefParameter<"int64_t", desc> {
  let parser = "::mlir::gemm::parseBracketedIntegers($_parser)";
  let printer = "::mlir::gemm::printBracketedIntegers($_printer, $_self)";
}

def Gemm_ClusterParameter : Gemm_ShapeParameter<"cluster shape"> {
  let defaultValue = "::llvm::SmallVector<int64_t>{1, 1}";
  let comparator = "::llvm::ArrayRef<int64_t>($_lhs) == ::llvm::ArrayRef<int64_t>($_rhs)";
}

def Gemm_ConfigAttr : AttrDef<Gemm_Dialect, "Config"> {
  let mnemonic = "config";
  let summary = "how a GEMM problem is turned into a kernel";
  let description = [{
    The kernel configuration of a `gemm.matmul`:
    - `arch`: `sm_90a` (WGMMA, register accumulators) or `sm_100a` (tcgen05
      MMA, tensor-memory accumulators).
    - `tile`: the CTA tile `[BM, BN, BK]`.
    - `cluster`: CTAs per cluster `[along M, along N]`; the shared operand of
      a cluster row/column is multicast by TMA.
    - `stages`: depth of the TMA -> MMA shared-memory ring; 0 derives the
      deepest ring that fits the shared-memory budget.
    - `schedule`: `cooperative` (consumer warpgroups split one tile),
      `pingpong` (consumer warpgroups alternate tiles), `warp_roles`
      (SM100: load, MMA, scheduler and epilogue warps) or `direct` (SM90:
      one CTA per tile whose BM / 64 warpgroups load A and B with plain
      element loads and write C with plain stores, at any alignment; no TMA,
      no cluster, two shared-memory stages).
    - `scheduler`: `static_persistent`, `clc` (SM100 cluster launch control),
      `split_k` (SM90: each tile's k-blocks in `splits` ranges, computed
      by different CTAs and summed by the last to finish) or `stream_k`
      (SM90: whole tiles while they fill every CTA, then the remaining
      tiles' k-blocks shared evenly by all CTAs; a tile computed by several
      CTAs is summed by the last of them to finish).
    - `splits`: the k-ranges per tile of `scheduler = split_k` (2 to 16).
    - `raster`, `swizzle`: tile order of the persistent scheduler: tiles are
      grouped in panels `swizzle` tiles wide across the raster dimension,
      and consecutive tiles walk along `raster` inside a panel.
    - `accum_stages` (SM100): tensor-memory accumulator buffers.
    - `cta_group` (SM100): 1, or 2 for MMA across a CTA pair (the pair is
      two CTAs adjacent along M, so the cluster's M size must be even;
      `tile` stays the tile of one CTA).
    - `k_group` (SM100): k-blocks per stage of the TMA -> MMA ring, i.e.
      per full/empty barrier pair (fewer barrier round trips per tile).

    Example:
    ```mlir
    #gemm.config<arch = sm_90a, tile = [128, 256, 64], cluster = [2, 1],
                 schedule = cooperative, raster = along_m, swizzle = 8>
    ```
  }];
  let parameters = (ins
    "::mlir::gemm::Arch":$arch,
    Gemm_ShapeParameter<"CTA tile">:$tile,
    Gemm_ClusterParameter:$cluster,
    DefaultValuedParameter<"int64_t", "0">:$stages,
    DefaultValuedParameter<"::mlir::gemm::Schedule",
        "::mlir::gemm::Schedule::cooperative">:$schedule,
    DefaultValuedParameter<"::mlir::gemm::TileScheduler",
        "::mlir::gemm::TileScheduler::static_persistent">:$scheduler,
    DefaultValuedParameter<"::mlir::gemm::Raster",
        "::mlir::gemm::Raster::along_m">:$raster,
    DefaultValuedParameter<"int64_t", "8">:$swizzle,
    DefaultValuedParameter<"int64_t", "2">:$accum_stages,
    DefaultValuedParameter<"int64_t", "1">:$cta_group,
    DefaultValuedParameter<"int64_t", "1">:$k_group,
    DefaultValuedParameter<"int64_t", "1">:$splits
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Gemm_QuantAttr : AttrDef<Gemm_Dialect, "Quant"> {
  let mnemonic = "quant";
  let summary = "scale factors and accumulation of a low-precision GEMM";
  let description = [{
    How a `gemm.matmul` with fp8 or int8 operands is scaled and
    accumulated (docs/LowPrecision.md):
    `C = scale_c * epilogue(sum_k (scale_a * A) (scale_b * B))`.
    - `a`: `none`, `tensor` (one f32), `row` (one f32 per row of A) or
      `block` (one f32 per row and 128-deep k-block of A, the 1 x 128
      blocks of DeepSeek-V3's recipe).
    - `b`: `none`, `tensor`, `col` (one f32 per column of C, i.e. per row
      of the N x K operand B) or `block` (one f32 per 128 x 128 block of
      B). `block` goes with `block`: those scales are applied to each
      k-block's partial sums when they are promoted; the others in the
      epilogue.
    - `c`: `none`, or `tensor` for an fp8 output: the output scale that
      multiplies the result before it is rounded to fp8 (fp8 outputs also
      write the amax of the result before that scale).
    - `accumulate` (fp8 inputs): `promoted` (the default) adds the WGMMA
      partial sums into a separate f32 accumulator every `promote_every`
      k-blocks, since Hopper's fp8 WGMMA accumulates with fewer bits than
      f32; `fast` keeps them in the WGMMA accumulator (fewer registers,
      less exact for long K).

    Example: `#gemm.quant<a = block, b = block>`,
    `#gemm.quant<a = tensor, b = tensor, c = tensor, accumulate = fast>`
  }];
  let parameters = (ins
    DefaultValuedParameter<"::mlir::gemm::ScaleMode",
        "::mlir::gemm::ScaleMode::none">:$a,
    DefaultValuedParameter<"::mlir::gemm::ScaleMode",
        "::mlir::gemm::ScaleMode::none">:$b,
    DefaultValuedParameter<"::mlir::gemm::ScaleMode",
        "::mlir::gemm::ScaleMode::none">:$c,
    DefaultValuedParameter<"::mlir::gemm::Accumulation",
        "::mlir::gemm::Accumulation::promoted">:$accumulate,
    DefaultValuedParameter<"int64_t", "1">:$promote_every
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether the inputs are scaled block-wise (applied at promotion).
    bool isBlockwise() const {
      return getA() == ::mlir::gemm::ScaleMode::block;
    }
  }];
}

#endif // GEMM_ATTRS_TD
