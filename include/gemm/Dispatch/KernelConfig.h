//===- KernelConfig.h - One SM90 kernel configuration, by name --*- C++ -*-===//
//
// A configuration is one `#gemm.config` of an sm_90a `gemm.matmul` (A row,
// B col, C row) plus its input and output types. Its name says everything,
// e.g. `sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0`: types, tile BMxBNxBK,
// schedule (coop = cooperative, pingpong, direct = the kernel that reads and
// writes the matrices with plain loads and stores at any alignment, one CTA
// per tile), cluster (CTAs along M x along N),
// raster (rm = along_m, rn = along_n), swizzle (tiles per panel), stages (st0
// = derived from the shared-memory budget), and with split-K a suffix _k<S>,
// with stream-K _sk. Layouts other than the default (A row, B col, C row)
// add a token after the types: a{k|m}b{k|n}c{r|c} (A K- or M-major, B K- or
// N-major, C row- or column-major), e.g. `sm90_bf16_ambncr_128x256x64_...`;
// a batched kernel (gemm.matmul ... batched) has `batched_` after that, a
// grouped (MoE) kernel (gemm.matmul ... grouped: G problems of their own M,
// docs/Runtime.md "Groups") `grouped_`.
// The name is the bundle's name, the tuning file's key (without the types
// and layouts) and the on-disk cache's file stem, so every front end spells
// a kernel the same way.
//
// Plain C++17, no CUDA or MLIR: the compiler side, the runtime, the Python
// package and the tools all link it.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_DISPATCH_KERNELCONFIG_H
#define GEMM_DISPATCH_KERNELCONFIG_H

#include "gemm/Bundle/Manifest.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gemm::dispatch {

using bundle::DType;
using bundle::Layout;
using bundle::TensorLayouts;

enum class Schedule { Cooperative, Pingpong, Direct };

/// "akbkcr" for A row (K-major), B col (K-major), C row; "ambncc" for A col,
/// B row, C col; and so on.
std::string layoutToken(const TensorLayouts &layouts);
/// The layouts of a token, or nullopt.
std::optional<TensorLayouts> parseLayoutToken(std::string_view token);
/// "row,col,row" (A, B, C: the gemm.matmul / manifest spellings) to layouts;
/// nullopt with `error` set when it is not three of row|col.
std::optional<TensorLayouts> parseLayoutTriple(std::string_view text,
                                               std::string &error);
/// "row,col,row".
std::string layoutTriple(const TensorLayouts &layouts);
enum class Raster { AlongM, AlongN };

/// The scales and fp8 accumulation of a low-precision configuration: the
/// `#gemm.quant` of its gemm.matmul (docs/LowPrecision.md). Spelled in
/// names as "q" + A's and B's granularity (n none, t tensor, r row, c col,
/// b block) + "f" for fast accumulation or the promotion interval in
/// k-blocks when not 1: "qtt", "qrc", "qbb", "qttf", "qtt4". An fp8 output
/// always has its output scale (implied by the type).
struct QuantConfig {
  std::optional<bundle::ScaleGranularity> a, b;
  bool fastAccumulation = false;
  uint32_t promoteEvery = 1;

  bool isDefault() const {
    return !a && !b && !fastAccumulation && promoteEvery == 1;
  }
  /// "" for the default, else e.g. "qtt".
  std::string spelling() const;
  /// Parses a spelling (with or without the leading "q"); nullopt and
  /// `error` set when it is not one.
  static std::optional<QuantConfig> parse(std::string_view text,
                                          std::string &error);
  bool operator==(const QuantConfig &o) const {
    return spelling() == o.spelling();
  }
};

struct KernelConfig {
  /// Input type of A (and of B unless `inTypeB`); C is `outType` when set,
  /// else defaultOutput(inType).
  DType inType = DType::BF16;
  std::optional<DType> outType;
  /// B's type when it differs from A's (mixed fp8 or 8-bit integer pairs).
  std::optional<DType> inTypeB;
  /// Scales and accumulation of fp8 and int8 configurations.
  QuantConfig quant;
  uint32_t tileM = 128, tileN = 256, tileK = 64;
  Schedule schedule = Schedule::Cooperative;
  uint32_t clusterM = 1, clusterN = 1;
  Raster raster = Raster::AlongM;
  uint32_t swizzle = 8;
  /// 0: the deepest ring that fits the shared-memory budget.
  uint32_t stages = 0;
  /// Split-K k-ranges per tile (1: none).
  uint32_t splits = 1;
  bool streamK = false;
  /// Storage orders of A, B and C (a problem property, like the types: the
  /// tuning file's keys do not carry them).
  TensorLayouts layouts;
  /// A batched kernel: a run-time batch of problems with strided (or
  /// broadcast) entries, rank-3 descriptors. Also a problem property.
  bool batched = false;
  /// A grouped kernel: G problems of different M (rows [offsets[g],
  /// offsets[g + 1]) of A and C, the offsets on the device) with one B entry
  /// each, in one persistent launch. A problem property too; bf16/f16, A and
  /// C row-major, whole tiles (no split-K, stream-K or direct schedule).
  bool grouped = false;

  DType cType() const { return outType.value_or(defaultOutput(inType)); }
  DType bType() const { return inTypeB.value_or(inType); }
  /// C's type when none is given: the input type for 16-bit and f32 (tf32)
  /// inputs, bf16 for fp8, s32 for 8-bit integers.
  static DType defaultOutput(DType in);
  /// Whether the compiler builds this configuration: the SM90 kernel's
  /// rules (the config attribute's clusters, swizzle and splits; the tile
  /// and the types: the WGMMA N of 8-bit integers, whole epilogue
  /// sub-tiles, block-wise scales covering whole 128-column blocks, the
  /// accumulator register budget, twice the accumulator when fp8 sums are
  /// promoted; multicast slices of whole 8-line atoms; a ring that fits
  /// shared memory; the direct kernel's 16-bit types, tiles, registers and
  /// one CTA per tile). `why` says which rule fails, after the name.
  /// test/Python/configs.test holds it to the compiler's verdicts.
  bool buildable(std::string *why = nullptr) const;
  /// K of a tile row of 128 bytes: 64 for 16-bit, 128 for 8-bit, 32 for
  /// tf32 inputs.
  static uint32_t tileKFor(DType in);
  /// The direct kernel (schedule = direct): pointers and leading dimensions
  /// instead of TMA descriptors, so the runtime never stages its matrices.
  /// bf16 and f16 only.
  bool direct() const { return schedule == Schedule::Direct; }

  /// "128x256x64_coop_c2x1_rm_s8_st0[_k2|_sk]": the name without the types,
  /// one key for a bf16 and an f16 twin (the tuning file's spelling).
  std::string key() const;
  /// "sm90_bf16_" + key(), with "_cf32" after the input type when C's type
  /// differs from it or from the default output (e.g. "sm90_bf16_cf32_128x...",
  /// "sm90_e4m3_ce4m3_qtt_..."), "xe5m2" after A's type for a B of another
  /// type, the quant spelling (e.g.
  /// "sm90_e4m3xe5m2_cbf16_qtt_128x128x128_..."), then the layout token unless
  /// the layouts are the default, then "batched_" for a batched kernel or
  /// "grouped_" for a grouped one.
  std::string name() const;
  /// The `gemm.matmul @NAME ...` op text that gemm-opt compiles.
  std::string mlir() const;
  /// The ring depth the compiler derives for stages = 0 (shared memory less
  /// the epilogue's staging buffers and the barrier reserve, over one stage;
  /// 2 for the direct kernel, which double-buffers).
  uint32_t derivedStages() const;
  /// Consumer warpgroups of the SM90 kernel: three for a 192-row
  /// cooperative tile (64 rows each), else two.
  uint32_t consumers() const {
    return schedule == Schedule::Cooperative && tileM == 192 ? 3 : 2;
  }
  uint32_t ringStages() const { return stages ? stages : derivedStages(); }

  /// Parses a name or a key (then of input type `defaultType`). On failure
  /// returns nullopt and sets `error` to what was expected.
  static std::optional<KernelConfig> parse(std::string_view text,
                                           std::string &error,
                                           DType defaultType = DType::BF16);

  bool operator==(const KernelConfig &o) const { return name() == o.name(); }
  bool operator!=(const KernelConfig &o) const { return !(*this == o); }
};

/// Bytes each row of a direct kernel's C staging buffer has past its BN
/// elements, so that neither the fragment writes nor the row reads conflict
/// on shared-memory banks.
inline constexpr uint32_t DirectStagingRowPadBytes = 16;

/// CTAs of a direct kernel (schedule = direct: BM / 64 warpgroups, two
/// shared-memory stages of BM + BN rows of BK 16-bit elements, and C's
/// staging rows: BM rows of BN `outputBytes` elements and the pad) that
/// fit on one SM at once: by threads (2048), shared memory and registers (the
/// accumulator, one k-block's fragments, a row index per row a thread loads
/// and 32 more: what ptxas needs without spilling, checked by
/// test/PTX/sm90-direct.mlir). The compiler gives the kernel this many as
/// its minimum CTAs per SM (`.minnctapersm`, which caps ptxas's registers at
/// 65536 / (threads x CTAs)) and the dispatcher's model assumes as many, so
/// the two agree. Inline: the compiler uses it without linking this library.
inline uint32_t directResidentCtas(uint32_t tileM, uint32_t tileN,
                                   uint32_t tileK, uint32_t outputBytes) {
  const uint64_t threads = 2 * uint64_t(tileM), warps = threads / 32;
  const uint64_t rows = uint64_t(tileM) + tileN;
  const uint64_t smem =
      2 * rows * tileK * 2 + uint64_t(tileM) * (uint64_t(tileN) * outputBytes +
                                                DirectStagingRowPadBytes);
  const uint64_t registers =
      (tileN / 2 + rows * tileK / threads + rows / warps + 32 + 7) / 8 * 8;
  const uint64_t byThreads = 2048 / threads;
  const uint64_t bySmem = bundle::MaxDynamicSmemBytes / (smem + 1024);
  const uint64_t byRegisters =
      65536 / (threads * (registers < 255 ? registers : 255));
  uint64_t ctas = byThreads < bySmem ? byThreads : bySmem;
  ctas = ctas < byRegisters ? ctas : byRegisters;
  return static_cast<uint32_t>(ctas ? ctas : 1);
}

std::string_view toString(Schedule schedule);
std::string_view toString(Raster raster);

} // namespace gemm::dispatch

#endif // GEMM_DISPATCH_KERNELCONFIG_H
