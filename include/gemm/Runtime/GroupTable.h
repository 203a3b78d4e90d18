//===- GroupTable.h - The group table of grouped (MoE) kernels --*- C++ -*-===//
//
// A grouped kernel (gemm.matmul ... grouped) computes G problems of M_g rows
// each, which are the rows [offsets[g], offsets[g + 1]) of A ([sum of M_g,
// K]) and C ([sum of M_g, N]), with entry g of B. The offsets live on the
// device (a router writes them), so the host does not know M_g: before every
// launch the runtime's prep kernel (GroupTable.cu) turns them into the group
// table the kernel reads (bundle::ParamKind::GroupTable):
//
//   header (16 bytes): {R, error, 0, 0}
//   entry r (16 bytes, at 16 + 16 r): {first row, end of its group's rows,
//                                      group, 0}
//
// R is the number of row units: the sum over g of ceil(M_g / unitRows),
// unitRows = tile M x cluster M. The kernel's persistent schedule walks R x
// (units along N) tile units. `error` is 0, or 1 + the first group whose
// offsets are invalid (decreasing, negative, or past the rows of A); then R
// is 0, so the kernel writes nothing, and the caller can read the error.
//
// What one thread of the prep kernel computes is here as host/device code:
// nvcc compiles it into the kernel and the unit tests run it on the CPU
// (buildGroupTable). No CUDA headers, no state.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_GROUPTABLE_H
#define GEMM_RUNTIME_GROUPTABLE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#if defined(__CUDACC__)
#define GEMM_GROUP_HOST_DEVICE __host__ __device__
#else
#define GEMM_GROUP_HOST_DEVICE
#endif

namespace gemm::runtime::grouped {

/// 32-bit words of the header and of one entry.
inline constexpr uint64_t HeaderWords = 4;
inline constexpr uint64_t EntryWords = 4;

/// The largest number of row units G groups covering at most `rows` rows
/// can have: each group's last unit may be partial.
GEMM_GROUP_HOST_DEVICE inline uint64_t
maxRowUnits(uint64_t rows, uint64_t groups, uint64_t unitRows) {
  return (rows + unitRows - 1) / unitRows + groups;
}

/// Bytes of the table for those bounds.
GEMM_GROUP_HOST_DEVICE inline uint64_t
tableBytes(uint64_t rows, uint64_t groups, uint64_t unitRows) {
  return 4 * (HeaderWords + EntryWords * maxRowUnits(rows, groups, unitRows));
}

/// The entries a table of `tableBytes` bytes holds after its header.
GEMM_GROUP_HOST_DEVICE inline uint64_t tableEntries(uint64_t tableBytes) {
  return tableBytes / 16 > 0 ? tableBytes / 16 - 1 : 0;
}

/// Group g's rows [begin, end) and whether its offsets are valid: 0 <=
/// offsets[g] <= offsets[g + 1] <= rows. An invalid group has no rows.
struct GroupRows {
  uint64_t begin = 0, end = 0;
  bool valid = true;
};

GEMM_GROUP_HOST_DEVICE inline GroupRows groupRows(int64_t first, int64_t last,
                                                  uint64_t rows) {
  GroupRows g;
  g.valid = first >= 0 && last >= first && uint64_t(last) <= rows;
  if (g.valid) {
    g.begin = uint64_t(first);
    g.end = uint64_t(last);
  }
  return g;
}

/// Row units of one group.
GEMM_GROUP_HOST_DEVICE inline uint64_t unitsOf(const GroupRows &g,
                                               uint64_t unitRows) {
  return (g.end - g.begin + unitRows - 1) / unitRows;
}

/// Writes unit u of group `group` (the group's first unit is table entry
/// `first`) into `table`, if it fits in `capacity` entries.
GEMM_GROUP_HOST_DEVICE inline void writeUnit(uint32_t *table, uint64_t capacity,
                                             uint64_t first, uint64_t u,
                                             const GroupRows &g, uint32_t group,
                                             uint64_t unitRows) {
  uint64_t entry = first + u;
  if (entry >= capacity)
    return;
  uint32_t *at = table + HeaderWords + EntryWords * entry;
  at[0] = uint32_t(g.begin + u * unitRows);
  at[1] = uint32_t(g.end);
  at[2] = group;
  at[3] = 0;
}

/// The whole table on the CPU, as the prep kernel writes it: `offsets` has
/// G + 1 entries; `capacityEntries` bounds the entries written (the
/// allocation's, maxRowUnits for valid offsets).
std::vector<uint32_t> buildGroupTable(const std::vector<int64_t> &offsets,
                                      uint64_t rows, uint64_t unitRows,
                                      uint64_t capacityEntries);

/// The problems with `offsets` as the offsets of a grouped problem over
/// `rows` rows of A (and C): no group (fewer than 2 entries), a negative
/// first offset, offsets that decrease or pass the end of A, or rows past
/// 2^31 (the kernel's 32-bit row indices). One message per problem, each
/// naming the group and the values; empty when they are fine.
std::vector<std::string> checkGroupOffsets(const std::vector<int64_t> &offsets,
                                           uint64_t rows);

/// Offsets (G + 1 entries, from 0) of groups of `rowsPerGroup` rows.
std::vector<int64_t> offsetsOf(const std::vector<uint64_t> &rowsPerGroup);

/// A grouped problem's rows per group from a --groups specification: a
/// comma-separated list of M_g ("128,0,77,300"), or "random:G:total:seed"
/// (G groups of random sizes, summing to `total`, as a router with uneven
/// load: some groups empty). Throws Error(Usage) naming what is wrong.
std::vector<uint64_t> parseGroups(const std::string &spec);

/// parseGroups for callers built without exceptions (the MLIR tools): the
/// rows, or nullopt with the message in `error`.
std::optional<std::vector<uint64_t>> tryParseGroups(const std::string &spec,
                                                    std::string &error);

} // namespace gemm::runtime::grouped

#endif // GEMM_RUNTIME_GROUPTABLE_H
