#!/usr/bin/env bash
# The libFuzzer harness over the compiler (tools/gemm-fuzz, docs/Fuzzing.md):
# builds it with clang, ASan and UBSan into build-fuzz/ (only the compiler
# libraries and the harness) and makes its seed corpus from the tests.
#
#   bash scripts/fuzz.sh build            build; the seed corpus into build-fuzz/corpus/seeds
#   bash scripts/fuzz.sh run [ARGS...]    build, then fuzz with libFuzzer ARGS (new inputs
#                                         go to build-fuzz/corpus/found; see docs/Fuzzing.md)
#   bash scripts/fuzz.sh static           build build-fuzz/bin/gemm-fuzz-static (LLVM and
#                                         MLIR linked in: bench/fuzz-device.sh) and the seeds
#
# Needs clang-22 and libclang-rt-22-dev (scripts/setup.sh installs them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMM_FUZZ_BUILD_DIR:-$root/build-fuzz}
mode=${1:-build}
shift || true

mkdir -p "$build"
if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  if command -v ccache > /dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  # -O1 with line tables: quicker to build than -O3, and stack traces name
  # lines. RelWithDebInfo's NDEBUG is undone by GEMM_BUILD_FUZZER (-UNDEBUG).
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DGEMM_BUILD_FUZZER=ON -DGEMM_BUILD_RUNTIME=OFF \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit "${launcher[@]}" \
    > "$build/configure.log" 2>&1 || { tail -30 "$build/configure.log"; exit 1; }
fi
target=gemm-fuzz
[ "$mode" = static ] && target=gemm-fuzz-static
ninja -C "$build" -j"${GEMM_FUZZ_JOBS:-2}" "$target" > "$build/$target-build.log" 2>&1 \
  || { tail -40 "$build/gemm-fuzz-build.log"; exit 1; }
rm -rf "$build/corpus/seeds"
mkdir -p "$build/corpus/seeds" "$build/corpus/found"
python3 "$root/tools/gemm-fuzz/make-corpus.py" "$root/test" "$build/corpus/seeds"

case "$mode" in
  build | static) ;;
  run) exec "$build/bin/gemm-fuzz" "$build/corpus/found" "$build/corpus/seeds" "$@" ;;
  *) echo "usage: $0 build | static | run [libFuzzer arguments]" >&2; exit 2 ;;
esac
