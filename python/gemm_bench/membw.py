"""Measures the GPU's device-to-device copy bandwidth, the practical HBM
roofline of the benchmark report, through the CUDA runtime (ctypes, no
build step).

    python -m gemm_bench.membw [--gib 4] [--iters 20] [--json FILE]

A copy of B bytes reads B and writes B, so the figure is 2 * B over the
median time of `iters` copies (CUDA events around each, after 3 warm-ups).
The buffers are far larger than the 60 MB L2, so it is HBM traffic.
Exits 3 when no CUDA runtime or GPU can be used.
"""
import argparse
import ctypes
import ctypes.util
import glob
import json
import statistics
import sys

MEMCPY_DEVICE_TO_DEVICE = 3


class CudaError(Exception):
    pass


def load_cudart():
    names = [ctypes.util.find_library("cudart"), "libcudart.so", "libcudart.so.13",
             "libcudart.so.12"]
    for pattern in ("/usr/local/cuda*/lib64/libcudart.so*",
                    "/usr/local/cuda*/targets/*/lib/libcudart.so*"):
        names += sorted(glob.glob(pattern), reverse=True)
    for name in names:
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise CudaError("no CUDA runtime library (libcudart) found")


def measure(gib=4.0, iters=20, device=0):
    cudart = load_cudart()
    cudart.cudaGetErrorString.restype = ctypes.c_char_p

    def check(code, what):
        if code != 0:
            raise CudaError(f"{what}: {cudart.cudaGetErrorString(code).decode()} ({code})")

    check(cudart.cudaSetDevice(device), "cudaSetDevice")
    size = int(gib * 2**30)
    src, dst = ctypes.c_void_p(), ctypes.c_void_p()
    check(cudart.cudaMalloc(ctypes.byref(src), ctypes.c_size_t(size)), "cudaMalloc")
    check(cudart.cudaMalloc(ctypes.byref(dst), ctypes.c_size_t(size)), "cudaMalloc")
    try:
        check(cudart.cudaMemset(src, 1, ctypes.c_size_t(size)), "cudaMemset")
        start, stop = ctypes.c_void_p(), ctypes.c_void_p()
        check(cudart.cudaEventCreate(ctypes.byref(start)), "cudaEventCreate")
        check(cudart.cudaEventCreate(ctypes.byref(stop)), "cudaEventCreate")
        times_ms = []
        for i in range(3 + iters):
            check(cudart.cudaEventRecord(start, None), "cudaEventRecord")
            check(cudart.cudaMemcpyAsync(dst, src, ctypes.c_size_t(size),
                                         MEMCPY_DEVICE_TO_DEVICE, None), "cudaMemcpyAsync")
            check(cudart.cudaEventRecord(stop, None), "cudaEventRecord")
            check(cudart.cudaEventSynchronize(stop), "cudaEventSynchronize")
            elapsed = ctypes.c_float()
            check(cudart.cudaEventElapsedTime(ctypes.byref(elapsed), start, stop),
                  "cudaEventElapsedTime")
            if i >= 3:
                times_ms.append(elapsed.value)
    finally:
        cudart.cudaFree(src)
        cudart.cudaFree(dst)
    median_ms = statistics.median(times_ms)
    return {"format": "gemm-membw", "version": 1, "method": "cudaMemcpyAsync device to device",
            "buffer_bytes": size, "iterations": iters, "median_ms": median_ms,
            "times_ms": times_ms, "bytes_per_s": 2 * size / (median_ms * 1e-3)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gib", type=float, default=4.0, help="buffer size (default 4 GiB)")
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--json", help="write the measurement here")
    args = parser.parse_args(argv)
    try:
        result = measure(args.gib, args.iters, args.device)
    except CudaError as e:
        print(f"membw: {e}", file=sys.stderr)
        return 3
    print(f"device-to-device copy: {result['bytes_per_s'] / 1e12:.2f} TB/s "
          f"(2 x {result['buffer_bytes'] / 2**30:.1f} GiB in {result['median_ms']:.3f} ms, median "
          f"of {args.iters})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
