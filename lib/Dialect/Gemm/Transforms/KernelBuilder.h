//===- KernelBuilder.h - pieces shared by the materialize passes -*- C++
//-*-===//
//
// The SM90 and SM100 kernels differ in how they compute (warpgroups with
// WGMMA vs. warp roles with tcgen05 and tensor memory) but not in how they
// load (TMA into a shared-memory ring, multicast across a cluster), walk
// their tiles (static persistent schedule, raster order and swizzle) or
// describe themselves to the launcher (the kernel bundle manifest). This
// header holds those shared parts so that each materialize pass only builds
// what is its own.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_LIB_DIALECT_GEMM_TRANSFORMS_KERNELBUILDER_H
#define GEMM_LIB_DIALECT_GEMM_TRANSFORMS_KERNELBUILDER_H

#include "gemm/Bundle/Manifest.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <functional>

namespace mlir::gemm {

/// Threads of a warpgroup: the unit that issues a WGMMA and owns its
/// accumulator rows.
constexpr int64_t kWarpgroupThreads = 128;

/// The tiling of a kernel: what its TMA loads, shared-memory ring and tile
/// schedule depend on, for either arch.
struct TileGeometry {
  std::string name;
  /// A's element type (and B's, but for mixed fp8 and int8 pairs), C's.
  Type inputType, outputType;
  Type inputTypeB;
  /// The tile of one CTA.
  int64_t bm = 0, bn = 0, bk = 0;
  int64_t clusterM = 1, clusterN = 1;
  /// CTAs sharing one MMA (SM100 cta_group 2: a pair adjacent along M).
  int64_t ctaGroup = 1;
  /// k-blocks per stage of the ring (per full/empty barrier pair).
  int64_t kGroup = 1;
  /// k-ranges each tile is cut into (split-K); 1 without split-K.
  int64_t splits = 1;
  int64_t stages = 0;
  Raster raster = Raster::along_m;
  int64_t swizzle = 1;
  /// Columns of one 128-byte-wide epilogue sub-tile.
  int64_t epilogueCols = 0;
  /// Storage orders: an M-major A (a(col)), an N-major B (b(row)), a
  /// column-major C (c(col)). MN-major operands are loaded in blocks of one
  /// swizzle span of M or N (`span()` elements, the TMA box's inner
  /// dimension) by all K lines of the k-block, and multicast slices cut
  /// their K lines instead of their rows.
  bool aMNMajor = false, bMNMajor = false, cColumns = false;
  /// A batch of problems (gemm.matmul ... batched): rank-3 descriptors and
  /// the batch size and broadcast mask as kernel parameters after M, N, K.
  bool batched = false;
  /// Grouped (MoE) problems (gemm.matmul ... grouped): A and C rank 2
  /// ([sum of M_g, .]), B rank 3 (one entry per group), the group count
  /// after M, N, K, then the group table, C's address and its leading
  /// dimension (the masked stores of tiles that cross their group's end).
  bool grouped = false;
  /// General grouped problems (gemm.matmul ... grouped(general)): every
  /// group its own M, N, K, matrices and leading dimensions; the group
  /// count after M, N, K, then the general group table (tile prefix and
  /// sizes per group, then three tensor maps per group). The A, B, C
  /// descriptor parameters are the templates the prep kernel copies.
  bool general = false;

  int64_t clusterSize() const { return clusterM * clusterN; }
  /// Split-K: a partial tile (f32) per split of every tile.
  int64_t partialBytesPerTile() const { return splits * bm * bn * 4; }
  /// Four u32 arrival counters per tile: room for every warpgroup that
  /// holds a part of the tile's accumulator, 16-byte aligned.
  static constexpr int64_t kCounterBytesPerTile = 16;
  /// The kernel parameters every kernel has: A, B, C descriptors, M, N, K,
  /// and for a batched kernel the batch size and broadcast mask; the
  /// arch's own parameters follow.
  int64_t commonParams() const {
    return batched || general ? 8 : grouped ? 10 : 6;
  }
  int64_t inputBytes() const { return getElementBytes(inputType); }
  /// Elements of one 128-byte swizzle span of the input type.
  int64_t span() const { return 128 / inputBytes(); }
  /// The TMA box {inner, outer} of one A (B) load: K-major, a slice of rows
  /// by the whole k-block; MN-major, one block of `span()` rows by the
  /// slice of K lines.
  std::pair<int64_t, int64_t> aBox() const {
    return aMNMajor ? std::pair{span(), bk / clusterN}
                    : std::pair{bk, aSliceRows()};
  }
  std::pair<int64_t, int64_t> bBox() const {
    return bMNMajor ? std::pair{span(), bk / (clusterM / ctaGroup)}
                    : std::pair{bk, bSliceRows()};
  }
  /// Rows of B a CTA holds: the whole tile, or its half of an MMA pair's.
  int64_t bRows() const { return bn / ctaGroup; }
  /// Rows of A (B) each CTA loads and multicasts to the CTAs that share
  /// them: the cluster row shares A; the CTAs of a cluster column at the
  /// same position in their pairs share B.
  int64_t aSliceRows() const { return bm / clusterN; }
  /// Boxes the A slice of a tile whose last box lies past row M is loaded
  /// in, through a second A descriptor (the last kernel parameter); the
  /// boxes that start at or past M are skipped. Rows TMA zero-fills are not
  /// free: on the H200 a 64x128 tile at M = 16 took 13% longer than at M =
  /// 48, and a 128x128 one at M = 160 53% longer than at M = 256
  /// (bench/results/2026-11-29-h200-edge-rows). Other tiles keep one box per
  /// slice: small boxes cost more than the zero-fill where they are all
  /// loaded (16-row boxes of a 128-row tile: up to 1.5x). 1: no second
  /// descriptor.
  int64_t aBoxesPerSlice = 1;
  int64_t partialABoxRows() const { return aSliceRows() / aBoxesPerSlice; }
  /// Columns of a row-major C's last epilogue sub-tile when the tile's N is
  /// not a multiple of epilogueCols (0: none). That sub-tile is staged
  /// packed (rows of narrowCColumns elements, no swizzle) and stored
  /// through a second C descriptor of such boxes, after the `extraParams`
  /// and before the partial-tile A descriptor.
  int64_t narrowCColumns = 0;
  int64_t bSliceRows() const { return bRows() / (clusterM / ctaGroup); }
  /// Bytes one CTA receives per ring stage (all kGroup k-blocks).
  int64_t stageBytes() const {
    return (bm + bRows()) * bk * inputBytes() * kGroup;
  }
  /// The MMA issuers whose completion must be awaited before a CTA's ring
  /// slot may be refilled: one per CTA pair (MMA group) of its cluster row,
  /// and one per pair of its cluster column. It is also the number of
  /// releases each slot's empty barrier takes.
  int64_t releasersPerStage() const {
    return clusterN + clusterM / ctaGroup - 1;
  }
};

/// Reads the sizes every kernel shares from a gemm.matmul and its config;
/// the arch-specific planners fill in the rest.
TileGeometry getTileGeometry(MatmulOp op);

/// The bundle dtype of an MLIR element type.
::gemm::bundle::DType toBundleType(Type type);

/// Creates the kernel of `geometry` for `arch` in a new gpu.module at the
/// builder's position: a gpu.func with the parameters every kernel shares
/// (A, B, C descriptors with the geometry's boxes, then M, N, K), then
/// `extraParams`, then the narrow C descriptor and the partial-tile A
/// descriptor if the geometry has them, and the attributes both archs need
/// (block size, cluster shape, by-value TMA descriptors); `buildBody` fills it,
/// then it ends with gpu.return. Returns the shared part of the launch contract
/// (types, tile, cluster, the shared memory its plan needs, the parameters).
::gemm::bundle::KernelManifest
buildKernel(OpBuilder &b, Location loc, const TileGeometry &geometry, Arch arch,
            int64_t threads, int64_t storeBoxRows,
            llvm::function_ref<void(gpu::GPUFuncOp)> buildBody,
            ArrayRef<Type> extraParams = {});

/// The manifest parameter of the descriptor for the A slices of tiles that
/// reach past row M (geometry.aBoxesPerSlice > 1): the kernel's last
/// parameter, after `extraParams`, so it goes after their manifest entries.
::gemm::bundle::Param partialTileADescriptor(const TileGeometry &geometry);

/// The manifest parameter of the descriptor for a row-major C's narrower
/// last sub-tile (geometry.narrowCColumns > 0): boxes of narrowCColumns x
/// `storeBoxRows`, unswizzled; after `extraParams`' entries, before the
/// partial-tile A descriptor's.
::gemm::bundle::Param narrowCDescriptor(const TileGeometry &geometry,
                                        int64_t storeBoxRows);

/// The manifest parameters of the workspaces of a kernel whose tiles
/// several CTAs compute (split-K, stream-K), its last two pointer
/// parameters: the partial tiles as `partialTiles` sizes them (split-K:
/// TileGeometry::partialBytesPerTile per tile) and the arrival counters
/// (kCounterBytesPerTile per tile, zeroed once; the kernel leaves them
/// zero).
std::array<::gemm::bundle::Param, 2>
sharedTileWorkspaceParams(::gemm::bundle::WorkspaceParam partialTiles);

/// A split-K kernel's partial tiles for sharedTileWorkspaceParams:
/// TileGeometry::partialBytesPerTile per tile.
::gemm::bundle::WorkspaceParam splitKPartialTiles(const TileGeometry &geometry);

/// Replaces every gemm.matmul of `arch` in `module` by its kernel:
/// `materialize` builds the gpu.module and returns the manifest (or fails
/// with a diagnostic on the matmul). Collects the manifests in the module's
/// gemm.bundles dictionary.
LogicalResult materializeMatmuls(
    ModuleOp module, Arch arch,
    llvm::function_ref<FailureOr<::gemm::bundle::KernelManifest>(MatmulOp)>
        materialize);

/// Builds kernel IR at one location, with the values every kernel body
/// computes in its prologue: kernel arguments, the CTA's place in its
/// cluster, the persistent tile units and the multicast masks.
class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, Location loc, const TileGeometry &geometry)
      : b(b), loc(loc), geometry(geometry) {}

  Value i32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  Value i1(bool v) { return arith::ConstantIntOp::create(b, loc, v, 1); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value rem(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value ne(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, y);
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value select(Value condition, Value x, Value y) {
    return arith::SelectOp::create(b, loc, condition, x, y);
  }
  /// An i16 multicast mask from an i32 one.
  Value toMask(Value mask) {
    return arith::TruncIOp::create(b, loc, b.getI16Type(), mask);
  }
  /// Runs `body` in an scf.if on `condition`.
  void ifThen(Value condition, function_ref<void()> body);
  void syncCluster();

  /// Reads the kernel arguments (A, B, C descriptors, M, N, K, and the
  /// batch size and broadcast mask when batched, the group count, group
  /// table, C pointer and leading dimension when grouped) and the thread,
  /// block and grid indices.
  void readKernelArguments(Block &entry);
  /// Computes the CTA's place in its cluster, the tile units and the
  /// multicast masks below.
  void computeSchedule();

  /// Element offsets (M, N) of this CTA's tile in cluster tile unit `unit`
  /// (of its batch entry, when batched).
  std::pair<Value, Value> tileOrigin(Value unit);
  /// The batch entry of tile unit `unit`: units are numbered entry by entry
  /// (unitsPerEntry each), so consecutive units, and the CTAs running at one
  /// time, share an entry's A and B panels. Null when not batched.
  Value batchOf(Value unit);

  /// Where tile unit `unit` of this CTA is: its element origin, its batch
  /// entry (B's group of a grouped kernel; null when neither batched nor
  /// grouped) and, grouped, the end of its group's rows (null otherwise).
  /// A grouped kernel's units form a virtual grid of R row units (the group
  /// table's, each tile M x cluster M rows of one group) by unitsN; raster
  /// order and swizzle walk that grid, and the row unit's table entry gives
  /// the rows and the group.
  ///
  /// A general grouped kernel's units are numbered group by group (the
  /// table's prefix); `group` is the unit's group (found by binary search
  /// over the prefix), `kBlocks` its k-blocks, and raster order and swizzle
  /// walk the group's own grid of units.
  struct TileLocation {
    Value originM, originN, entry, rowEnd;
    Value group, kBlocks;
  };
  TileLocation locateTile(Value unit);
  /// General grouped kernels: the group of tile unit `unit`, the last g
  /// with first unit <= `unit` (an scf.while over the table's prefix, log2 G
  /// loads).
  Value findGroup(Value unit);
  /// General grouped kernels: operand `operand`'s (0: A, 1: B, 2: C) tensor
  /// map of `group`, acquired by this thread for its TMA copies when
  /// `acquire` (gemm.tma.acquire_descriptor).
  Value groupDescriptor(Value group, int64_t operand, bool acquire);

  /// Runs `body(unit, count)` for the static persistent schedule: this
  /// cluster's units clusterId, clusterId + clusterCount, ...; `count`
  /// numbers them 0, 1, ... Returns the number of units processed.
  Value forEachStaticUnit(function_ref<void(Value unit, Value count)> body);

  /// One ring stage of TMA loads of k-blocks [kGroup * group, kGroup *
  /// (group + 1)) of the tile at (originM, originN): waits for the slot,
  /// announces the stage's bytes on its full barrier and issues the loads
  /// (multicast slices across the cluster, cta_group 2 loads for MMA pairs).
  void loadStage(Value pipeline, Value ringA, Value ringB, Value iteration,
                 Value group, Value originM, Value originN,
                 Value batch = Value());

  /// The bit of the CTA at (m, n) of the cluster in a multicast mask (i32).
  Value rankBit(Value m, int64_t n);

  /// Split-K and stream-K: stores a warpgroup's partial tile to block
  /// `block` of `partials`, counts it in on counter `counter` of
  /// `counters` for a tile made of `arrivals` partials (by its leader
  /// thread, after named barrier `warpgroup` + 1 of the warpgroup's 128
  /// threads), and returns, in every thread of the warpgroup, whether it
  /// was the last to arrive.
  Value buildArrival(Value acc, Value block, Value counter, Value arrivals,
                     Value warpgroup, Value isLeader);

  OpBuilder &b;
  Location loc;
  const TileGeometry &geometry;

  // Kernel arguments.
  Value descA, descB, descC, sizeM, sizeN, sizeK;
  /// Batched kernels: the batch size, and the mask of the operands whose
  /// batch stride is 0 (bit 0: A, bit 1: B; read at batch entry 0).
  Value sizeBatch, broadcast;
  /// A in partialABoxRows()-row boxes (aBoxesPerSlice > 1 only).
  Value descAPartial;
  /// C in narrowCColumns-wide unswizzled boxes (narrowCColumns > 0 only).
  Value descCNarrow;
  /// Grouped kernels: the group count, the group table (!llvm.ptr<1>), C's
  /// address and leading dimension (i64, elements).
  Value sizeGroups, groupTable, pointerC, leadingDimC;
  // Thread, CTA and cluster coordinates (i32).
  Value tid, blockId, gridSize, clusterId, clusterCount, rank, rankM, rankN;
  /// This CTA's index inside its MMA pair (0: the leader) and the leader's
  /// cluster rank; 0 and `rank` without pairs.
  Value pairIndex, pairLeader;
  // The persistent schedule: tile units of clusterM x clusterN tiles, of
  // all batch entries (unitsPerEntry each).
  Value unitsM, unitsN, unitsPerEntry, unitCount, kBlocks;
  /// Multicast masks of this CTA's A and B loads (i16; null without
  /// multicast), and the CTAs an MMA issuer of this CTA's pair must tell
  /// that the pair's ring slot is free (i32; null without a cluster).
  Value multicastA, multicastB, releaseMask;
  /// Split-K, stream-K: the partial tiles and arrival counters (kernel
  /// arguments).
  Value partials, counters;
};

} // namespace mlir::gemm

#endif // GEMM_LIB_DIALECT_GEMM_TRANSFORMS_KERNELBUILDER_H
