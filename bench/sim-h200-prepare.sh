#!/usr/bin/env bash
# Prepares the simulator-vs-H200 comparison (bench/sim-h200.sh) on the machine
# with the compiler: compiles the 17 kernels of bench/kernels/sm90.mlir to
# bundles (the default pipeline, gemm-check-protocol included) and runs each
# in the simulator on every problem of bench/shapes/sim-h200.txt with the
# small-integer inputs of seed SEED, writing each C.
#
#   bench/sim-h200-prepare.sh [OUT_DIR] [SEED]     # default .bundles/sim-h200 1
#
# Writes OUT_DIR/bundles/NAME.{ptx,cubin,json}, OUT_DIR/sim/NAME_MxNxK_sSEED.bin
# (gemm/Bundle/TestData.h dumps), OUT_DIR/sim.log; and .device/ with the
# nlohmann-json .deb the GPU machine builds gemm-runner with, if missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/.bundles/sim-h200}
seed=${2:-1}
bin=${GEMM_BIN:-$root/build/bin}
mkdir -p "$out/bundles" "$out/sim"
rm -f "$out"/bundles/* "$out"/sim/*

"$bin/gemm-opt" "$root/bench/kernels/sm90.mlir" \
  --gemm-to-ptx="output-dir=$out/bundles" -o /dev/null
shapes=()
while read -r m n k _; do
  [[ -z "$m" || "$m" == \#* ]] && continue
  shapes+=(--shape "${m}x${n}x${k}")
done < "$root/bench/shapes/sim-h200.txt"
"$bin/gemm-sim" "$root/bench/kernels/sm90.mlir" "${shapes[@]}" --sms 8 \
  --seed "$seed" --dump-dir "$out/sim" > "$out/sim.log"
tail -1 "$out/sim.log"

if ! ls "$root"/.device/nlohmann-json3-dev_*.deb > /dev/null 2>&1; then
  mkdir -p "$root/.device"
  (cd "$root/.device" && apt-get download nlohmann-json3-dev > /dev/null)
fi
echo "bundles and simulator outputs in $out ($(du -sh "$out" | cut -f1));" \
     "carry $out and .device to the GPU machine"
