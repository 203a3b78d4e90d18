//===- StagingCopy.h - The row copy of staging, per thread ------*- C++ -*-===//
//
// What one thread of the staging copy kernel does, as host/device code: nvcc
// compiles it into the kernel (lib/Runtime/Staging.cu) and the unit tests run
// it on the CPU over every thread of a launch, with memory that checks each
// access. No CUDA headers, no state; under nvcc also DeviceMemory, the
// accesses to global memory the kernel (and bench/probes/staging-copy.cu)
// give copyChunk.
//
// A copy moves `rows` rows of `rowBytes` bytes from rows `srcPitch` bytes
// apart to rows `dstPitch` bytes apart; one pitch is the packed row length
// (the user's matrix), the other a multiple of 16 (the scratch copy), so one
// side is misaligned. Each thread writes one 16-byte-aligned word of a
// destination row: it loads the one or two aligned 16-byte source words that
// hold those bytes, shifts them into place with funnel shifts, and stores
// with one 16-byte store, or, where the word is only partly inside the row,
// with the widest aligned stores that cover exactly the row's bytes. Loads of
// words not wholly inside the source buffer (its first and last word, when
// misaligned) fall back to single bytes, so no access leaves either buffer.
//
//===----------------------------------------------------------------------===//

#ifndef GEMM_RUNTIME_STAGINGCOPY_H
#define GEMM_RUNTIME_STAGINGCOPY_H

#include <cstdint>

#if defined(__CUDACC__)
#define GEMM_HOST_DEVICE __host__ __device__
#define GEMM_FORCE_INLINE __forceinline__
#define GEMM_UNROLL _Pragma("unroll")
#else
#define GEMM_HOST_DEVICE
#define GEMM_FORCE_INLINE inline
#define GEMM_UNROLL
#endif

namespace gemm::runtime::staging {

/// One copy, with raw addresses. Loads stay inside [srcBegin, srcEnd).
struct RowCopy {
  uint64_t dst = 0, dstPitch = 0;
  uint64_t src = 0, srcPitch = 0;
  uint64_t rows = 0, rowBytes = 0;
  uint64_t srcBegin = 0, srcEnd = 0;
};

/// Sixteen bytes as four little-endian 32-bit words (byte i of the chunk is
/// byte i % 4 of w[i / 4]).
struct alignas(16) Chunk {
  uint32_t w[4];
};

/// Aligned 16-byte words a destination row touches, at most: one more than
/// ceil(rowBytes / 16) when destination rows do not start on 16 bytes.
GEMM_HOST_DEVICE GEMM_FORCE_INLINE uint64_t chunksPerRow(const RowCopy &c) {
  bool aligned = c.dst % 16 == 0 && c.dstPitch % 16 == 0;
  return (c.rowBytes + 15) / 16 + (aligned ? 0 : 1);
}

/// Bits [shift, shift + 32) of the 64-bit value hi:lo; shift < 32.
GEMM_HOST_DEVICE GEMM_FORCE_INLINE uint32_t funnelShiftRight(uint32_t lo,
                                                             uint32_t hi,
                                                             uint32_t shift) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_r(lo, hi, shift);
#else
  return uint32_t(((uint64_t(hi) << 32) | lo) >> shift);
#endif
}

/// Bytes [4q + shift/8, 4q + shift/8 + 16) of the 32 bytes in `window`.
template <int Q>
GEMM_HOST_DEVICE GEMM_FORCE_INLINE Chunk extract(const uint32_t (&window)[8],
                                                 uint32_t shift) {
  Chunk out;
  GEMM_UNROLL
  for (int i = 0; i < 4; ++i)
    out.w[i] = funnelShiftRight(window[i + Q], window[i + Q + 1], shift);
  return out;
}

/// Byte i of a chunk.
GEMM_HOST_DEVICE GEMM_FORCE_INLINE uint32_t byteOf(const Chunk &chunk,
                                                   uint32_t i) {
  return (chunk.w[i / 4] >> (8 * (i % 4))) & 0xff;
}

/// Copies the part of destination row `row` that lies in its `k`-th aligned
/// 16-byte word (k < chunksPerRow(c); words past the row's end do nothing).
///
/// `Memory` provides: Chunk load16(uint64_t) (16-byte aligned),
/// uint32_t load1(uint64_t), store16(uint64_t, const Chunk &) (16-byte
/// aligned), store8(uint64_t, uint64_t), store4(uint64_t, uint32_t),
/// store2(uint64_t, uint32_t), store1(uint64_t, uint32_t) (each aligned to
/// its size; the narrow ones store the low bits).
template <typename Memory>
GEMM_HOST_DEVICE GEMM_FORCE_INLINE void
copyChunk(const RowCopy &c, uint64_t row, uint64_t k, Memory &memory) {
  uint64_t dstRow = c.dst + row * c.dstPitch;
  uint64_t dstEnd = dstRow + c.rowBytes;
  uint64_t word = (dstRow & ~uint64_t(15)) + 16 * k;
  if (word >= dstEnd)
    return;
  // The row's bytes in this word: [lo, hi).
  uint32_t lo = word < dstRow ? uint32_t(dstRow - word) : 0;
  uint32_t hi = dstEnd - word < 16 ? uint32_t(dstEnd - word) : 16;
  // Where byte 0 of the word comes from (modulo 2^64: for the first word of a
  // row it lies before the source row, and only bytes [lo, hi) are used).
  uint64_t from = c.src + row * c.srcPitch + (word - dstRow);
  uint64_t base = from & ~uint64_t(15);
  uint32_t offset = uint32_t(from & 15);
  // The needed source bytes lie in window[offset + lo, offset + hi) of the
  // two aligned words at `base`.
  bool needFirst = offset + lo < 16;
  bool needSecond = offset + hi > 16;
  uint64_t loadBegin = needFirst ? base : base + 16;
  uint64_t loadEnd = needSecond ? base + 32 : base + 16;

  Chunk value;
  if (loadBegin >= c.srcBegin && loadEnd <= c.srcEnd) {
    uint32_t window[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (needFirst) {
      Chunk first = memory.load16(base);
      for (int i = 0; i < 4; ++i)
        window[i] = first.w[i];
    }
    if (needSecond) {
      Chunk second = memory.load16(base + 16);
      for (int i = 0; i < 4; ++i)
        window[4 + i] = second.w[i];
    }
    uint32_t shift = 8 * (offset % 4);
    switch (offset / 4) {
    case 0:
      value = extract<0>(window, shift);
      break;
    case 1:
      value = extract<1>(window, shift);
      break;
    case 2:
      value = extract<2>(window, shift);
      break;
    default:
      value = extract<3>(window, shift);
      break;
    }
  } else {
    // The first or last word of the source buffer: bytes, none outside it.
    for (int i = 0; i < 4; ++i)
      value.w[i] = 0;
    GEMM_UNROLL
    for (uint32_t i = 0; i < 16; ++i)
      if (i >= lo && i < hi)
        value.w[i / 4] |= memory.load1(from + i) << (8 * (i % 4));
  }

  if (lo == 0 && hi == 16) {
    memory.store16(word, value);
    return;
  }
  // Exactly the row's bytes [lo, hi), each by the largest aligned block
  // (8, 4, 2 or 1 bytes) inside the range whose parent block is not: the
  // widest stores the alignment allows. Constant positions only, so that
  // `value` stays in registers.
  auto inside = [&](uint32_t at, uint32_t size) {
    return at >= lo && at + size <= hi;
  };
  GEMM_UNROLL
  for (uint32_t at = 0; at < 16; at += 8)
    if (inside(at, 8))
      memory.store8(word + at, uint64_t(value.w[at / 4]) |
                                   (uint64_t(value.w[at / 4 + 1]) << 32));
  GEMM_UNROLL
  for (uint32_t at = 0; at < 16; at += 4)
    if (inside(at, 4) && !inside(at & ~7u, 8))
      memory.store4(word + at, value.w[at / 4]);
  GEMM_UNROLL
  for (uint32_t at = 0; at < 16; at += 2)
    if (inside(at, 2) && !inside(at & ~3u, 4))
      memory.store2(word + at, (value.w[at / 4] >> (8 * (at % 4))) & 0xffff);
  GEMM_UNROLL
  for (uint32_t at = 0; at < 16; ++at)
    if (inside(at, 1) && !inside(at & ~1u, 2))
      memory.store1(word + at, byteOf(value, at));
}

#if defined(__CUDACC__)
/// Global memory by raw address. Source and destination never overlap, so
/// loads go through the read-only path; stores are global stores that skip
/// L1 (the copy does not read what it writes).
struct DeviceMemory {
  __device__ Chunk load16(uint64_t at) const {
    uint4 v = __ldg(reinterpret_cast<const uint4 *>(at));
    Chunk chunk;
    chunk.w[0] = v.x;
    chunk.w[1] = v.y;
    chunk.w[2] = v.z;
    chunk.w[3] = v.w;
    return chunk;
  }
  __device__ uint32_t load1(uint64_t at) const {
    return __ldg(reinterpret_cast<const unsigned char *>(at));
  }
  __device__ void store16(uint64_t at, const Chunk &chunk) const {
    __stcg(reinterpret_cast<uint4 *>(at),
           make_uint4(chunk.w[0], chunk.w[1], chunk.w[2], chunk.w[3]));
  }
  __device__ void store8(uint64_t at, uint64_t value) const {
    __stcg(reinterpret_cast<unsigned long long *>(at), value);
  }
  __device__ void store4(uint64_t at, uint32_t value) const {
    __stcg(reinterpret_cast<unsigned int *>(at), value);
  }
  __device__ void store2(uint64_t at, uint32_t value) const {
    __stcg(reinterpret_cast<unsigned short *>(at),
           static_cast<unsigned short>(value));
  }
  __device__ void store1(uint64_t at, uint32_t value) const {
    __stcg(reinterpret_cast<unsigned char *>(at),
           static_cast<unsigned char>(value));
  }
};
#endif

} // namespace gemm::runtime::staging

#endif // GEMM_RUNTIME_STAGINGCOPY_H
