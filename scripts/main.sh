#!/usr/bin/env bash
# The main job: set up, build, compile the default GEMM (bf16, sm_90a,
# 128x256x64 cooperative) to a kernel bundle and print what was made; where a
# GPU is present, check it against cuBLAS and time it beside cuBLAS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
build=${GEMM_BUILD_DIR:-$root/build}
out=$build/bundles
mkdir -p "$out"

"$build/bin/gemm-opt" "$root/bench/kernels/default.mlir" \
  --gemm-to-ptx="output-dir=$out" -o /dev/null
echo "main: kernel bundle in $out:"
ls -l "$out"/gemm_sm90_bf16.*
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
if [ -x "$ptxas" ]; then
  "$ptxas" -arch=sm_90a -v "$out/gemm_sm90_bf16.ptx" -o /dev/null 2>&1 |
    grep -E "registers|spill" | sed 's/^/main: ptxas: /'
fi

runner=$build/bin/gemm-runner
if [ ! -x "$runner" ]; then
  echo "main: gemm-runner was not built (no CUDA toolkit); stopping after the bundle"
  exit 0
fi
"$runner" "$out/gemm_sm90_bf16.json" --m 8192 --n 8192 --k 8192 --dry-run
if gpu=$("$runner" --probe 2>/dev/null); then
  echo "main: $gpu"
  "$runner" "$out/gemm_sm90_bf16.json" --shapes "$root/bench/shapes/sm90-check.txt" \
    --check
  "$runner" "$out/gemm_sm90_bf16.json" --m 8192 --n 8192 --k 8192 \
    --bench --vs cublas
else
  echo "main: no usable NVIDIA GPU here (gemm-runner --probe); the bundle was" \
       "compiled and assembled but not run"
fi
