//===- GroupProblems.h - General grouped GEMM: records and table -*- C++
//-*-===//
//
// A general grouped kernel (gemm.matmul ... grouped(general)) computes G
// independent problems C_g = A_g * B_g in one launch. The caller describes
// them in a device array of G GroupProblem records (64 bytes each), which a
// router or a framework can fill on the device. Before every launch the
// runtime's prep kernel (GroupProblemsKernel.cu) checks the records and
// writes the general group table the kernel reads
// (bundle::ParamKind::GroupProblemTable):
//
//   header (16 bytes):        {U, error, reason, 0}
//   entry g (16 bytes, at 16 + 16 g):  {first unit, M_g, N_g, K_g}
//   tensor maps (128 bytes each, from descriptorsOffset(G) = align128(16 +
//     16 G) on, group-major): A_g, B_g, C_g
//
// A unit is tile M x cluster M rows by tile N x cluster N columns of one
// group: group g has ceil(M_g / unitRows) x ceil(N_g / unitCols) units, and
// `first unit` is the sum over the groups before it (a prefix). U is the
// total. The kernel's persistent schedule walks units 0..U-1, finding a
// unit's group by binary search over the prefix. `error` is 0, or 1 + the
// first group whose record is invalid (`reason` says why: GroupError);
// then U is 0 and the kernel writes nothing.
//
// What one thread of the prep kernel computes per group is here as
// host/device code: nvcc compiles it into the prep kernel and the unit tests
// run it on the CPU (buildGeneralTable). No CUDA headers, no state.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_GROUPPROBLEMS_H
#define GEMM_RUNTIME_GROUPPROBLEMS_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#if defined(__CUDACC__)
#define GEMM_GENERAL_HOST_DEVICE __host__ __device__
#else
#define GEMM_GENERAL_HOST_DEVICE
#endif

namespace gemm::runtime::general {

/// One group as the caller writes it in device memory. Leading dimensions
/// are elements between the stored matrix's rows (its lines along the
/// outer dimension): A row-major (K-major) M_g x K_g, lda >= K_g; A
/// column-major K_g lines of M_g, lda >= M_g; and so on for B (N x K as
/// col, K x N as row) and C (M x N). The storage orders are the kernel's
/// (its manifest's layouts), the same for every group.
struct GroupProblem {
  int32_t m = 0, n = 0, k = 0;
  int32_t reserved = 0;
  uint64_t a = 0, b = 0, c = 0;
  int64_t lda = 0, ldb = 0, ldc = 0;
};
static_assert(sizeof(GroupProblem) == 64, "GroupProblem is 64 bytes");

/// Bytes of the table's header, of one entry, of one tensor map.
inline constexpr uint64_t HeaderBytes = 16;
inline constexpr uint64_t EntryBytes = 16;
inline constexpr uint64_t TensorMapBytes = 128;
/// Tensor maps per group: A, B, C.
inline constexpr uint64_t MapsPerGroup = 3;

GEMM_GENERAL_HOST_DEVICE inline uint64_t descriptorsOffset(uint64_t groups) {
  return (HeaderBytes + EntryBytes * groups + 127) / 128 * 128;
}
GEMM_GENERAL_HOST_DEVICE inline uint64_t tableBytes(uint64_t groups) {
  return descriptorsOffset(groups) + MapsPerGroup * TensorMapBytes * groups;
}

/// Why a group's record is refused (the table's `reason` word).
enum class GroupError : uint32_t {
  None = 0,
  NegativeSize,         // M, N or K below 0
  EmptyK,               // K = 0 with M, N > 0: C = epilogue(0) is not computed
  NullPointer,          // a matrix of a group with tiles at address 0
  MisalignedPointer,    // an address not a multiple of 16 bytes (TMA)
  ShortLeadingDim,      // a leading dimension below its line's length
  MisalignedLeadingDim, // lda x element bytes not a multiple of 16 (TMA)
  TooLarge,             // a leading dimension's bytes at or past 2^40 (TMA)
  TooManyUnits,         // the tile units of all groups reach 2^31
  PartialOutputChunk,   // C's lines not a multiple of 16 bytes (TMA stores)
};

/// "M, N or K is negative", ...: the error's words for messages.
const char *describe(GroupError error);

/// The kernel's storage orders, which fix each descriptor's dims: an
/// M-major A (col), an N-major B (row), a column-major C (col).
struct GroupLayouts {
  bool aColumns = false, bRows = false, cColumns = false;
  /// Bytes of one element of A and B, of C.
  uint32_t inputBytes = 2, outputBytes = 2;
};

/// One matrix of a group as TMA sees it: `inner` contiguous elements per
/// line, `outer` lines `ld` elements apart.
struct Extent {
  uint64_t inner = 0, outer = 0;
  int64_t ld = 0;
  uint64_t address = 0;
  uint32_t elementBytes = 2;
};

/// Operand `which` (0: A, 1: B, 2: C) of `p` under `layouts`.
GEMM_GENERAL_HOST_DEVICE inline Extent
extentOf(const GroupProblem &p, const GroupLayouts &layouts, int which) {
  uint64_t m = p.m < 0 ? 0 : uint64_t(p.m), n = p.n < 0 ? 0 : uint64_t(p.n),
           k = p.k < 0 ? 0 : uint64_t(p.k);
  Extent e;
  if (which == 0) {
    e = layouts.aColumns ? Extent{m, k, p.lda, p.a, layouts.inputBytes}
                         : Extent{k, m, p.lda, p.a, layouts.inputBytes};
  } else if (which == 1) {
    e = layouts.bRows ? Extent{n, k, p.ldb, p.b, layouts.inputBytes}
                      : Extent{k, n, p.ldb, p.b, layouts.inputBytes};
  } else {
    e = layouts.cColumns ? Extent{m, n, p.ldc, p.c, layouts.outputBytes}
                         : Extent{n, m, p.ldc, p.c, layouts.outputBytes};
  }
  return e;
}

/// Whether TMA stores into the lines of `e` write only its elements: its
/// lines are whole 16-byte chunks (a store writes the chunk holding a line's
/// last element whole).
GEMM_GENERAL_HOST_DEVICE inline bool storesWholeChunks(const Extent &e) {
  return e.inner * e.elementBytes % 16 == 0;
}

/// Whether group `p` has tiles (M > 0 and N > 0).
GEMM_GENERAL_HOST_DEVICE inline bool hasTiles(const GroupProblem &p) {
  return p.m > 0 && p.n > 0;
}

/// The rules of one record. A group with M = 0 or N = 0 has no tiles: its
/// K, pointers and leading dimensions are not read (C_g is empty).
GEMM_GENERAL_HOST_DEVICE inline GroupError checkGroup(const GroupProblem &p,
                                                      const GroupLayouts &l) {
  if (p.m < 0 || p.n < 0 || p.k < 0)
    return GroupError::NegativeSize;
  if (!hasTiles(p))
    return GroupError::None;
  if (p.k == 0)
    return GroupError::EmptyK;
  for (int which = 0; which < 3; ++which) {
    Extent e = extentOf(p, l, which);
    if (e.address == 0)
      return GroupError::NullPointer;
    if (e.address % 16 != 0)
      return GroupError::MisalignedPointer;
    if (e.ld < 0 || uint64_t(e.ld) < e.inner)
      return GroupError::ShortLeadingDim;
    if (uint64_t(e.ld) * e.elementBytes % 16 != 0)
      return GroupError::MisalignedLeadingDim;
    if (uint64_t(e.ld) * e.elementBytes >= (uint64_t(1) << 40))
      return GroupError::TooLarge;
  }
  // A TMA store writes a line's last 16-byte chunk whole, past the line's
  // end into the caller's next elements (measured on the H200:
  // bench/probes/tma-store-extent.cu), so C's lines must end on a chunk.
  if (!storesWholeChunks(extentOf(p, l, 2)))
    return GroupError::PartialOutputChunk;
  return GroupError::None;
}

/// Tile units of one valid group.
GEMM_GENERAL_HOST_DEVICE inline uint64_t
unitsOf(const GroupProblem &p, uint32_t unitRows, uint32_t unitCols) {
  if (!hasTiles(p))
    return 0;
  return (uint64_t(p.m) + unitRows - 1) / unitRows *
         ((uint64_t(p.n) + unitCols - 1) / unitCols);
}

/// Writes entry g ({first unit, M, N, K}) of the table (32-bit words).
GEMM_GENERAL_HOST_DEVICE inline void writeEntry(uint32_t *table, uint64_t g,
                                                uint64_t firstUnit,
                                                const GroupProblem &p) {
  uint32_t *at = table + (HeaderBytes + EntryBytes * g) / 4;
  at[0] = uint32_t(firstUnit);
  at[1] = uint32_t(p.m);
  at[2] = uint32_t(p.n);
  at[3] = uint32_t(p.k);
}

/// What the prep kernel sets in a copy of the template to make operand
/// `which`'s tensor map of group `p` (tensormap.replace): the global
/// address, global_dim 0 and 1 (the stored matrix's line length and line
/// count) and global_stride 0 (bytes between lines: ld x element bytes).
struct TensorMapFields {
  uint64_t address = 0;
  uint32_t dims[2] = {0, 0};
  uint64_t strideBytes = 0;
};
GEMM_GENERAL_HOST_DEVICE inline TensorMapFields
tensorMapFields(const GroupProblem &p, const GroupLayouts &layouts, int which) {
  Extent e = extentOf(p, layouts, which);
  TensorMapFields f;
  f.address = e.address;
  f.dims[0] = uint32_t(e.inner);
  f.dims[1] = uint32_t(e.outer);
  f.strideBytes = uint64_t(e.ld) * e.elementBytes;
  return f;
}

/// Whether the prep kernel writes a group's three tensor maps: a valid
/// group (its `error` after the unit-count rule) with `units` > 0. The maps
/// of the other groups are not written (stale or uninitialised memory).
GEMM_GENERAL_HOST_DEVICE inline bool writesMaps(GroupError error,
                                                uint64_t units) {
  return error == GroupError::None && units > 0;
}

/// The table's header and entries on the CPU, as the prep kernel writes
/// them: 4 x (1 + G) words. With `maps`, also the tensor maps it writes:
/// (*maps)[g] holds group g's A, B, C fields, or nothing where writesMaps
/// is false.
std::vector<uint32_t> buildGeneralTable(
    const std::vector<GroupProblem> &groups, const GroupLayouts &layouts,
    uint32_t unitRows, uint32_t unitCols,
    std::vector<std::optional<std::array<TensorMapFields, 3>>> *maps = nullptr);

/// Every problem of `groups` on the host, one message each naming the group,
/// the values and the rule ("group 3: lda 100 x 2 bytes is not a multiple of
/// 16 ..."); also no group at all. Empty when they are fine.
std::vector<std::string> checkGroups(const std::vector<GroupProblem> &groups,
                                     const GroupLayouts &layouts);

/// The sizes of a general grouped problem, one group per entry.
struct GroupSize {
  int64_t m = 0, n = 0, k = 0;
};

/// Group sizes from a --group-problems specification: a file of one
/// "M N K" per line (# comments, blank lines allowed), or
/// "random:G:SEED" (G groups of random M in [8, 1024], N and K in [8,
/// 2048], all multiples of 8 so that C's lines suit every layout: different
/// M, N and K per group, one group in eight M = 0). Throws
/// Error(Usage) naming the line or the field that is wrong.
std::vector<GroupSize> parseGroupProblems(const std::string &spec);

/// parseGroupProblems for callers built without exceptions (the MLIR
/// tools): the sizes, or nullopt with the message in `error`.
std::optional<std::vector<GroupSize>>
tryParseGroupProblems(const std::string &spec, std::string &error);

/// Where the matrices of every group lie in three buffers (A, B, C), as the
/// runner allocates them: per group and operand an element offset and a
/// leading dimension, lines rounded up to 16 bytes; with `padInputs` the
/// odd groups' A and B lines get 16 more bytes (leading dimensions that
/// are not the packed ones). Every matrix starts 16-byte aligned.
struct GroupPacking {
  std::array<uint64_t, 3> elements = {0, 0, 0};
  std::vector<std::array<uint64_t, 3>> offsets, lds;
};
GroupPacking packGroups(const std::vector<GroupSize> &sizes,
                        const GroupLayouts &layouts, bool padInputs);

/// The records of `sizes` packed as `packing` says in buffers at `a`, `b`,
/// `c` (device addresses).
std::vector<GroupProblem> groupRecords(const std::vector<GroupSize> &sizes,
                                       const GroupPacking &packing,
                                       const GroupLayouts &layouts, uint64_t a,
                                       uint64_t b, uint64_t c);

/// The message of a table's error word and reason from the device: "group
/// 3 (of 8): lda is not a multiple of 16 bytes" (or empty when error is 0).
std::string describeTableError(uint32_t error, uint32_t reason,
                               uint64_t groups);

} // namespace gemm::runtime::general

#endif // GEMM_RUNTIME_GROUPPROBLEMS_H
