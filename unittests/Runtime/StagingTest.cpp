//===- StagingTest.cpp - Staging plans and the row copy, on the CPU -------===//
//
// The copy kernel's per-thread code (gemm/Runtime/StagingCopy.h) runs here
// over every thread of the launch the runtime would make, on host memory
// that checks every access: alignment, loads inside the source buffer,
// stores only onto the destination rows' bytes, each byte written once.
//
//===----------------------------------------------------------------------===//

#include "gemm/Runtime/Staging.h"
#include "gemm/Runtime/Plan.h"
#include "gemm/Runtime/StagingCopy.h"

#include "PlanFixtures.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <sstream>

using namespace gemm::bundle;
using namespace gemm::runtime;
using namespace gemm::runtime::plan_fixtures;
using gemm::runtime::staging::Chunk;
using gemm::runtime::staging::RowCopy;
using ::testing::ElementsAre;

namespace {

LaunchPlan plan(uint64_t m, uint64_t n, uint64_t k, uint64_t batch = 1,
                UnalignedPolicy unaligned = UnalignedPolicy::Stage) {
  KernelManifest manifestWithBatch = manifest();
  if (batch > 1)
    manifestWithBatch.params.push_back(Param::problemSize(ProblemDim::Batch));
  return planLaunch(manifestWithBatch, problem(m, n, k, batch),
                    options(132, unaligned));
}

TEST(Staging, CopiesOfAPlan) {
  // m=4095 n=4097 k=4100 bf16: all three staged.
  std::vector<StagingCopyPlan> copies = stagingCopies(plan(4095, 4097, 4100));
  ASSERT_EQ(copies.size(), 3u);
  const StagingCopyPlan &a = copies[0], &b = copies[1], &c = copies[2];
  EXPECT_EQ(a.tensor, Tensor::A);
  EXPECT_TRUE(a.intoScratch);
  EXPECT_EQ(a.rows, 4095u);
  EXPECT_EQ(a.rowBytes, 8200u);
  EXPECT_EQ(a.srcPitch, 8200u);
  EXPECT_EQ(a.dstPitch, 8320u);
  EXPECT_EQ(a.srcBytes, 4095u * 8200);
  EXPECT_EQ(a.dstBytes, 4095u * 8320);
  EXPECT_EQ(a.trafficBytes(), 2u * 4095 * 8200);
  EXPECT_EQ(a.describe(),
            "tensor a (packed rows of 8200 bytes -> scratch rows of 8320 "
            "bytes)");
  EXPECT_EQ(b.tensor, Tensor::B);
  EXPECT_EQ(b.rows, 4097u);
  EXPECT_EQ(c.tensor, Tensor::C);
  EXPECT_FALSE(c.intoScratch);
  EXPECT_EQ(c.rows, 4095u);
  EXPECT_EQ(c.rowBytes, 8194u);
  EXPECT_EQ(c.srcPitch, 8320u);
  EXPECT_EQ(c.dstPitch, 8194u);
  EXPECT_EQ(c.srcBytes, 4095u * 8320);
  EXPECT_EQ(c.dstBytes, 4095u * 8194);
  EXPECT_EQ(c.describe(),
            "tensor c (scratch rows of 8320 bytes -> packed rows of 8194 "
            "bytes)");

  // Batches are rows too.
  copies = stagingCopies(plan(256, 512, 100, 3));
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(copies[0].rows, 3u * 256);
  EXPECT_EQ(copies[1].rows, 3u * 512);

  // Nothing staged: aligned, or padded by the caller.
  EXPECT_TRUE(stagingCopies(plan(4096, 4096, 4096)).empty());
  EXPECT_TRUE(
      stagingCopies(plan(4095, 4097, 4100, 1, UnalignedPolicy::Pad)).empty());
}

TEST(Staging, Launch) {
  // 8191 bf16 into scratch: 1024 aligned words per row, 256 threads along
  // the row doing 4 each, one row per block.
  RowCopy in;
  in.dst = 1 << 20;
  in.dstPitch = 16384;
  in.src = 2 << 20;
  in.srcPitch = 16382;
  in.rows = 8191;
  in.rowBytes = 16382;
  RowCopyLaunch launch = rowCopyLaunch(in);
  EXPECT_EQ(launch.chunksPerRow, 1024u);
  EXPECT_THAT(launch.block, ElementsAre(256u, 1u));
  EXPECT_THAT(launch.grid, ElementsAre(1u, 8191u));
  // Out of scratch into packed rows: one more word per row (rows start
  // anywhere in a word), so two blocks per row.
  RowCopy out = in;
  out.dstPitch = 16382;
  out.srcPitch = 16384;
  launch = rowCopyLaunch(out);
  EXPECT_EQ(launch.chunksPerRow, 1025u);
  EXPECT_THAT(launch.grid, ElementsAre(2u, 8191u));
  // Long rows: 100000 words, 98 blocks of 256 threads per row.
  RowCopy wide = in;
  wide.rowBytes = 1600000;
  wide.dstPitch = 1600000;
  wide.rows = 3;
  launch = rowCopyLaunch(wide);
  EXPECT_EQ(launch.chunksPerRow, 100000u);
  EXPECT_THAT(launch.grid, ElementsAre(98u, 3u));
  // Short rows: a warp along the row, 8 rows per block; the grid's y is
  // capped and the kernel strides over the rest.
  RowCopy narrow = in;
  narrow.rowBytes = 200;
  narrow.dstPitch = 256;
  narrow.srcPitch = 200;
  narrow.rows = 10'000'000;
  launch = rowCopyLaunch(narrow);
  EXPECT_EQ(launch.chunksPerRow, 13u);
  EXPECT_THAT(launch.block, ElementsAre(32u, 8u));
  EXPECT_THAT(launch.grid, ElementsAre(1u, 65535u));
}

/// Host memory at made-up device addresses, checking every access the copy
/// makes.
class CheckedMemory {
public:
  CheckedMemory(uint64_t srcAddress, std::vector<uint8_t> &src,
                uint64_t dstAddress, std::vector<uint8_t> &dst,
                const RowCopy &copy)
      : srcAddress(srcAddress), src(src), dstAddress(dstAddress), dst(dst),
        copy(copy) {
    writes.assign(dst.size(), 0);
  }

  Chunk load16(uint64_t at) {
    EXPECT_EQ(at % 16, 0u) << "misaligned 16-byte load at " << at;
    checkLoad(at, 16);
    Chunk chunk;
    std::memcpy(chunk.w, &src[at - srcAddress], 16);
    return chunk;
  }
  uint32_t load1(uint64_t at) {
    checkLoad(at, 1);
    ++byteLoads;
    return src[at - srcAddress];
  }
  void store16(uint64_t at, const Chunk &chunk) { store(at, chunk.w, 16); }
  void store8(uint64_t at, uint64_t value) { store(at, &value, 8); }
  void store4(uint64_t at, uint32_t value) { store(at, &value, 4); }
  void store2(uint64_t at, uint32_t value) {
    uint16_t v = static_cast<uint16_t>(value);
    EXPECT_EQ(value >> 16, 0u);
    store(at, &v, 2);
  }
  void store1(uint64_t at, uint32_t value) {
    uint8_t v = static_cast<uint8_t>(value);
    EXPECT_EQ(value >> 8, 0u);
    store(at, &v, 1);
  }

  std::vector<uint8_t> writes;
  uint64_t byteLoads = 0;
  std::map<uint32_t, uint64_t> storesBySize;
  bool failed = false;

private:
  void checkLoad(uint64_t at, uint64_t size) {
    if (at < copy.srcBegin || at + size > copy.srcEnd || at < srcAddress ||
        at + size > srcAddress + src.size()) {
      ADD_FAILURE() << "load of " << size << " bytes at " << at
                    << " outside the source buffer [" << copy.srcBegin << ", "
                    << copy.srcEnd << ")";
      failed = true;
    }
  }
  void store(uint64_t at, const void *value, uint32_t size) {
    ++storesBySize[size];
    if (at % size != 0) {
      ADD_FAILURE() << size << "-byte store at " << at << " is misaligned";
      failed = true;
    }
    for (uint32_t i = 0; i < size; ++i) {
      uint64_t address = at + i;
      if (address < dstAddress || address >= dstAddress + dst.size()) {
        ADD_FAILURE() << "store outside the destination at " << address;
        failed = true;
        return;
      }
      uint64_t offset = address - copy.dst;
      if (offset % copy.dstPitch >= copy.rowBytes) {
        ADD_FAILURE() << "store into row padding at " << address;
        failed = true;
      }
      ++writes[address - dstAddress];
    }
    std::memcpy(&dst[at - dstAddress], value, size);
  }

  uint64_t srcAddress;
  std::vector<uint8_t> &src;
  uint64_t dstAddress;
  std::vector<uint8_t> &dst;
  const RowCopy &copy;
};

/// Runs every thread of the kernel's launch for `copy` on the CPU, exactly
/// as copyRowsKernel indexes them.
void runOnCpu(const RowCopy &copy, CheckedMemory &memory) {
  RowCopyLaunch launch = rowCopyLaunch(copy);
  uint64_t threadsX = uint64_t(launch.grid[0]) * launch.block[0];
  uint64_t threadsY = uint64_t(launch.grid[1]) * launch.block[1];
  for (uint64_t x = 0; x < threadsX; ++x)
    for (uint64_t y = 0; y < threadsY; ++y)
      for (uint64_t row = y; row < copy.rows; row += threadsY)
        for (uint64_t k = x; k < launch.chunksPerRow; k += threadsX)
          staging::copyChunk(copy, row, k, memory);
}

struct Case {
  uint64_t rows, rowBytes, srcPitch, dstPitch;
  /// Offsets of the buffers from 256-byte-aligned addresses.
  uint64_t srcOffset = 0, dstOffset = 0;
};

std::string describe(const Case &c) {
  std::ostringstream out;
  out << c.rows << " rows of " << c.rowBytes << " bytes, pitch " << c.srcPitch
      << " -> " << c.dstPitch << ", offsets " << c.srcOffset << " -> "
      << c.dstOffset;
  return out.str();
}

/// Copies with checked memory, then compares every destination byte: the
/// rows' bytes equal the source's, written exactly once; padding untouched.
/// Returns the number of stores by size, and the byte loads.
std::map<uint32_t, uint64_t> check(const Case &c,
                                   uint64_t *byteLoads = nullptr) {
  SCOPED_TRACE(describe(c));
  const uint64_t srcAddress = (uint64_t(1) << 32) + c.srcOffset;
  const uint64_t dstAddress = (uint64_t(3) << 32) + c.dstOffset;
  // A packed source ends with its last row; a scratch source (pitch a
  // multiple of 16) has its last row's padding too, as the runtime's has.
  std::vector<uint8_t> src(c.srcPitch % 16 == 0
                               ? c.rows * c.srcPitch
                               : (c.rows - 1) * c.srcPitch + c.rowBytes);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = static_cast<uint8_t>(i * 131 + (i >> 8) * 7 + 1);
  std::vector<uint8_t> dst((c.rows - 1) * c.dstPitch + c.rowBytes, 0xee);
  RowCopy copy;
  copy.src = srcAddress;
  copy.srcPitch = c.srcPitch;
  copy.dst = dstAddress;
  copy.dstPitch = c.dstPitch;
  copy.rows = c.rows;
  copy.rowBytes = c.rowBytes;
  copy.srcBegin = srcAddress;
  copy.srcEnd = srcAddress + src.size();
  CheckedMemory memory(srcAddress, src, dstAddress, dst, copy);
  runOnCpu(copy, memory);
  uint64_t wrong = 0, badWrites = 0;
  for (uint64_t row = 0; row < c.rows; ++row)
    for (uint64_t i = 0; i < c.dstPitch && row * c.dstPitch + i < dst.size();
         ++i) {
      uint64_t d = row * c.dstPitch + i;
      bool inRow = i < c.rowBytes;
      if (inRow && dst[d] != src[row * c.srcPitch + i])
        ++wrong;
      if (!inRow && dst[d] != 0xee)
        ++wrong;
      if (memory.writes[d] != (inRow ? 1 : 0))
        ++badWrites;
    }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(badWrites, 0u);
  if (byteLoads)
    *byteLoads = memory.byteLoads;
  return memory.storesBySize;
}

uint64_t roundUp(uint64_t value, uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

TEST(Staging, RowCopyIntoAlignedScratch) {
  // Packed rows (any length, any element size) into 128-byte-aligned rows.
  for (uint64_t elementBytes : {1, 2, 4})
    for (uint64_t inner : {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 100,
                           129, 4095, 4097, 20001})
      for (uint64_t rows : {1, 2, 3, 7}) {
        uint64_t rowBytes = inner * elementBytes;
        check({rows, rowBytes, rowBytes, roundUp(rowBytes, 128)});
      }
}

TEST(Staging, RowCopyOutOfAlignedScratch) {
  for (uint64_t elementBytes : {1, 2, 4})
    for (uint64_t inner : {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 100,
                           129, 4095, 4097, 20001})
      for (uint64_t rows : {1, 2, 3, 7}) {
        uint64_t rowBytes = inner * elementBytes;
        check({rows, rowBytes, roundUp(rowBytes, 128), rowBytes});
      }
}

TEST(Staging, RowCopyAnyBaseAlignment) {
  // Buffers that do not start on 16 bytes (the runtime's own always do; a
  // library caller's may not): still exact, still inside both buffers.
  for (uint64_t srcOffset : {0, 1, 2, 6, 8, 14})
    for (uint64_t dstOffset : {0, 2, 4, 10})
      for (uint64_t rowBytes : {2, 6, 18, 34, 8190}) {
        check({5, rowBytes, rowBytes, roundUp(rowBytes, 16), srcOffset,
               dstOffset});
        check({5, rowBytes, roundUp(rowBytes, 16), rowBytes, srcOffset,
               dstOffset});
      }
}

TEST(Staging, RowCopyUsesWideAccesses) {
  // 8191 bf16 into scratch: full rows of 16-byte stores, each row's last
  // 14 bytes as 8 + 4 + 2; 16-byte loads throughout (bytes only at the
  // source buffer's misaligned end).
  uint64_t byteLoads = 0;
  std::map<uint32_t, uint64_t> stores =
      check({8, 16382, 16382, 16384}, &byteLoads);
  EXPECT_EQ(stores[16], 8u * 1023);
  EXPECT_EQ(stores[8], 8u);
  EXPECT_EQ(stores[4], 8u);
  EXPECT_EQ(stores[2], 8u);
  EXPECT_EQ(stores[1], 0u);
  EXPECT_LE(byteLoads, 16u);
  // And back: the packed rows start anywhere in a 16-byte word, so each
  // row's first and last word are partial; the rest are whole 16-byte
  // stores.
  stores = check({8, 16382, 16384, 16382}, &byteLoads);
  EXPECT_GE(stores[16], 8u * 1022);
  EXPECT_EQ(stores[1], 0u);
  EXPECT_EQ(byteLoads, 0u);
}

} // namespace
