#!/usr/bin/env bash
# Builds the compiler, the runtime and the tools with AddressSanitizer and
# UndefinedBehaviorSanitizer (GCC; -fno-sanitize-recover, so any undefined
# behaviour fails the test that hit it) into build-asan/, then runs the whole
# lit suite with them. Not part of the test command (a second full build takes
# about 25 minutes on two cores); run after scripts/setup.sh:
#
#   bash scripts/sanitizers.sh
#
# Debian's LLVM/MLIR libraries are not instrumented: the sanitizers watch the
# project's own code (dialect, passes, lowerings, runtime, tools). Leak
# detection is off: LLVM's option and pass registries are process-lifetime
# allocations that LeakSanitizer would list on every run.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMM_ASAN_BUILD_DIR:-$root/build-asan}
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
export PATH=$PATH:/usr/local/cuda/bin

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    > "$build.configure.log" 2>&1 || { tail -30 "$build.configure.log"; exit 1; }
fi
# allow_user_poisoning=0: LLVM's headers, compiled here with ASan, poison
# the free space of BumpPtrAllocator slabs that Debian's uninstrumented
# libMLIR then writes into (a use-after-poison report in the parser, not a
# bug). protect_shadow_gap=0: the CUDA driver maps memory where ASan keeps
# its shadow gap (gemm-runner loads it, to say there is no GPU). The build
# runs gemm-opt (the kernel library), so these hold for it too.
export ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0:protect_shadow_gap=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ninja -C "$build" > "$build.build.log" 2>&1 || { tail -30 "$build.build.log"; exit 1; }
/usr/lib/llvm-22/bin/lit -sv "$build/test"
