"""Probe: does letting the scheduler switch warps inside the fp8 promotion's
runs of FFMAs help the block-wise kernels? Patches sm_90a cubins in place:
in each run of at least 8 consecutive FFMA R, R, R instructions of a .text
section, an FFMA whose operand-reuse flags are set (bits 58-61 of its high
64-bit word) gets them cleared and its bit 45 (the yield control bit, set
on the reused FFMAs that ptxas emits, clear on the others) cleared, for the
first FRACTION of the run. The reuse flags must go where the warp may be
switched (the reuse cache would not hold this warp's operand). A probe,
not a product step.

    python3 bench/probes/ffma-yield.py [--fraction 0.5625] CUBIN...
"""
import argparse
import struct

FFMA_RRR = 0x223
REUSE_BITS = 0xF << 58
YIELD_BIT = 1 << 45


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = []
    for i in range(shnum):
        name, _type, _flags, _addr, offset, size = struct.unpack_from(
            "<IIQQQQ", data, shoff + i * shentsize)
        headers.append((name, offset, size))
    strtab = headers[shstrndx]
    for name, offset, size in headers:
        end = data.index(b"\0", strtab[1] + name)
        yield data[strtab[1] + name:end].decode(), offset, size


def patch(data, fraction):
    changed = 0
    for name, offset, size in sections(data):
        if not name.startswith(".text."):
            continue
        words = [struct.unpack_from("<QQ", data, offset + i) for i in range(0, size, 16)]
        i = 0
        while i < len(words):
            j = i
            while j < len(words) and words[j][0] & 0xFFF == FFMA_RRR:
                j += 1
            if j - i >= 8:
                for n in range(i, i + int((j - i) * fraction)):
                    low, high = words[n]
                    if high & REUSE_BITS:
                        high &= ~(REUSE_BITS | YIELD_BIT)
                        struct.pack_into("<QQ", data, offset + n * 16, low, high)
                        changed += 1
            i = max(j, i + 1)
    return changed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fraction", type=float, default=0.5625)
    parser.add_argument("cubins", nargs="+")
    args = parser.parse_args()
    for path in args.cubins:
        data = bytearray(open(path, "rb").read())
        changed = patch(data, args.fraction)
        open(path, "wb").write(data)
        print(f"{path}: {changed} FFMAs changed")


if __name__ == "__main__":
    main()
