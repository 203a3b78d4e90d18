#ifndef GEMM_ENUMS_TD
#define GEMM_ENUMS_TD

include "mlir/IR/EnumAttr.td"
include "gemm/Dialect/Gemm/IR/GemmDialect.td"

def Gemm_ArchSM90a : I32EnumAttrCase<"sm_90a", 90>;
def Gemm_ArchSM100a : I32EnumAttrCase<"sm_100a", 100>;
def Gemm_Arch : I32EnumAttr<"Arch", "target GPU architecture",
    [Gemm_ArchSM90a, Gemm_ArchSM100a]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}
def Gemm_ArchAttr : EnumAttr<Gemm_Dialect, Gemm_Arch, "arch"> {
  let assemblyFormat = "$value";
}

def Gemm_LayoutRow : I32EnumAttrCase<"row", 0>;
def Gemm_LayoutCol : I32EnumAttrCase<"col", 1>;
def Gemm_Layout : I32EnumAttr<"Layout",
    "matrix storage order: row = rows contiguous, col = columns contiguous",
    [Gemm_LayoutRow, Gemm_LayoutCol]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}
def Gemm_LayoutAttr : EnumAttr<Gemm_Dialect, Gemm_Layout, "layout"> {
  let assemblyFormat = "$value";
}

def Gemm_MajorK : I32EnumAttrCase<"k", 0>;
def Gemm_MajorMN : I32EnumAttrCase<"mn", 1>;
def Gemm_Major : I32EnumAttr<"Major",
    "which dimension of an operand tile is contiguous in shared memory: k "
    "(rows of K elements) or mn (rows of M or N elements)",
    [Gemm_MajorK, Gemm_MajorMN]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_ScheduleCooperative : I32EnumAttrCase<"cooperative", 0>;
def Gemm_SchedulePingpong : I32EnumAttrCase<"pingpong", 1>;
def Gemm_ScheduleWarpRoles : I32EnumAttrCase<"warp_roles", 2>;
def Gemm_ScheduleDirect : I32EnumAttrCase<"direct", 3>;
def Gemm_Schedule : I32EnumAttr<"Schedule",
    "how consumer warpgroups share work: cooperative (split one tile), "
    "pingpong (alternate tiles), warp_roles (SM100 load/MMA/epilogue warps), "
    "direct (SM90: every warpgroup loads and multiplies one tile per CTA, "
    "operands read and C written with plain loads and stores)",
    [Gemm_ScheduleCooperative, Gemm_SchedulePingpong, Gemm_ScheduleWarpRoles,
     Gemm_ScheduleDirect]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}
def Gemm_ScheduleAttr : EnumAttr<Gemm_Dialect, Gemm_Schedule, "schedule"> {
  let assemblyFormat = "$value";
}

def Gemm_TileSchedulerStatic : I32EnumAttrCase<"static_persistent", 0>;
def Gemm_TileSchedulerCLC : I32EnumAttrCase<"clc", 1>;
def Gemm_TileSchedulerSplitK : I32EnumAttrCase<"split_k", 2>;
def Gemm_TileSchedulerStreamK : I32EnumAttrCase<"stream_k", 3>;
def Gemm_TileScheduler : I32EnumAttr<"TileScheduler",
    "how tiles are handed to CTAs",
    [Gemm_TileSchedulerStatic, Gemm_TileSchedulerCLC, Gemm_TileSchedulerSplitK,
     Gemm_TileSchedulerStreamK]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}
def Gemm_TileSchedulerAttr
    : EnumAttr<Gemm_Dialect, Gemm_TileScheduler, "tile_scheduler"> {
  let assemblyFormat = "$value";
}

def Gemm_RasterAlongM : I32EnumAttrCase<"along_m", 0>;
def Gemm_RasterAlongN : I32EnumAttrCase<"along_n", 1>;
def Gemm_Raster : I32EnumAttr<"Raster",
    "the dimension consecutive tiles walk along inside a swizzle panel",
    [Gemm_RasterAlongM, Gemm_RasterAlongN]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}
def Gemm_RasterAttr : EnumAttr<Gemm_Dialect, Gemm_Raster, "raster"> {
  let assemblyFormat = "$value";
}

// Low-precision GEMMs (docs/LowPrecision.md).
def Gemm_ScaleNone : I32EnumAttrCase<"none", 0>;
def Gemm_ScaleTensor : I32EnumAttrCase<"tensor", 1>;
def Gemm_ScaleRow : I32EnumAttrCase<"row", 2>;
def Gemm_ScaleCol : I32EnumAttrCase<"col", 3>;
def Gemm_ScaleBlock : I32EnumAttrCase<"block", 4>;
def Gemm_ScaleMode : I32EnumAttr<"ScaleMode",
    "how an operand's scale factors cover it: none, one per tensor, one per "
    "row of A / column of B, or one per block (A: 1 x 128, B: 128 x 128)",
    [Gemm_ScaleNone, Gemm_ScaleTensor, Gemm_ScaleRow, Gemm_ScaleCol,
     Gemm_ScaleBlock]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

def Gemm_AccumulatePromoted : I32EnumAttrCase<"promoted", 0>;
def Gemm_AccumulateFast : I32EnumAttrCase<"fast", 1>;
def Gemm_Accumulation : I32EnumAttr<"Accumulation",
    "how fp8 WGMMA partial sums are accumulated: promoted into a separate f32 "
    "accumulator every few k-blocks, or kept in the WGMMA accumulator (fast)",
    [Gemm_AccumulatePromoted, Gemm_AccumulateFast]> {
  let cppNamespace = "::mlir::gemm";
  let genSpecializedAttr = 0;
}

#endif // GEMM_ENUMS_TD
