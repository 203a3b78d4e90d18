#!/usr/bin/env bash
# Generates a set of SM90 kernel variants and compiles each to a kernel
# bundle, on the machine with the compiler (gemm-opt, ptxas). The bundles
# then travel to the GPU machine for bench/suite.sh.
#
#   bench/compile-bundles.sh SET OUT_DIR [configs options...]
#   bench/compile-bundles.sh best .bundles/suite    # what the suite runs: the
#                                                   # dispatcher's choices
#   bench/compile-bundles.sh best .bundles/gen --groups train,test
#   bench/compile-bundles.sh space .bundles/space   # every tile x cluster x order
#
# Writes OUT_DIR/variants.mlir, OUT_DIR/NAME.{ptx,cubin,json} and
# OUT_DIR/compile-times.json (per kernel: gemm-opt to PTX, ptxas, registers,
# spills). GEMM_OPT picks the compiler (default build/bin/gemm-opt), JOBS the
# parallel compiles (default: CPU count).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
set=${1:?set: best or space}
out=${2:?output directory}
shift 2
python=$root/build-venv/bin/python
[ -x "$python" ] || python=python3
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"

# A private copy of gemm-opt, so a rebuild of build/ in the middle of a
# compile cannot mix two compilers in one bundle set.
gemm_opt=${GEMM_OPT:-$root/build/bin/gemm-opt}
[ -x "$gemm_opt" ] || { echo "no gemm-opt at $gemm_opt (set GEMM_OPT)"; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp "$gemm_opt" "$scratch/gemm-opt"

mkdir -p "$out"
"$python" -m gemm_bench.configs --set "$set" --out "$out/variants.mlir" "$@"
"$python" -m gemm_bench.compile "$out/variants.mlir" --out "$out" \
  --gemm-opt "$scratch/gemm-opt" --jobs "${JOBS:-$(nproc)}"
