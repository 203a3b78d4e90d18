#!/usr/bin/env bash
# Prepares the simulator-vs-H200 comparison (bench/sim-h200.sh) on the machine
# with the compiler: compiles the 17 kernels of bench/kernels/sm90.mlir, seven
# kernels of bench/kernels/sm90-layouts.mlir (one per operand layout other
# than A K-major, B K-major, C row-major: M-major A, N-major B, column-major
# C, over cooperative, pingpong, clusters, f16, an f32 output, split-K and
# stream-K) and the eight batched kernels of bench/kernels/sm90-batched.mlir
# to bundles (the default pipeline, gemm-check-protocol included), and runs
# each in the simulator with the small-integer inputs of seed SEED, writing
# each C: the 17 + 7 on every problem of bench/shapes/sim-h200.txt, the
# batched ones on every problem of bench/shapes/sim-h200-batched.txt. With
# PART=all (the default) also the 11 direct kernels of
# bench/kernels/direct.mlir and the 35 low-precision kernels of
# bench/kernels/sm90-lowp.mlir (fp8 pairs, every scaling mode, fp8 outputs
# with amax, int8, tf32) on every problem of bench/shapes/sim-h200-lowp.txt,
# and the three batched low-precision kernels on the batched problems;
# their scale factors are the powers of two of gemm/Bundle/TestData.h
# (gemm-runner --inputs small-int gives the GPU the same), and a kernel
# with an amax output also writes its amax; and the eight grouped (MoE)
# kernels of bench/kernels/sm90-grouped.mlir on the ragged groups of
# bench/shapes/sim-h200-grouped.txt (empty groups, groups that are not a
# multiple of the tile: the masked stores of the tiles crossing a group's
# end); and the seven general grouped kernels of
# bench/kernels/sm90-general.mlir (grouped(general): every group its own M,
# N, K and leading dimensions, its own tensor maps) on the problems of
# bench/shapes/sim-h200-general.txt (M_g = 0 and N_g = 0 groups, odd sizes,
# K tails; sim-h200-general-ccol.txt for the column-major C). PART=sm90 compiles only the first set (the comparison of
# 2026-11-24), PART=lowp only the direct and low-precision ones,
# PART=grouped only the grouped ones, PART=general only the general ones.
#
#   bench/sim-h200-prepare.sh [OUT_DIR] [SEED]     # default .bundles/sim-h200 1
#
# Writes OUT_DIR/bundles/NAME.{ptx,cubin,json},
# OUT_DIR/sim/NAME_MxNxK[xB][_bcX]_sSEED.bin (gemm/Bundle/TestData.h dumps,
# C as stored; a grouped problem's M is gM_0-M_1-..., its groups' rows; a
# general problem is pM_0xN_0xK_0-..., C all groups' packed buffer) and
# .amax (the amax's f32 bits in hex, then its value), OUT_DIR/sim.log; and
# .device/ with the nlohmann-json .deb the GPU machine builds gemm-runner
# with, if missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/.bundles/sim-h200}
seed=${2:-1}
part=${PART:-all}
case "$part" in all | sm90 | lowp | grouped | general) ;;
  *) echo "PART: all, sm90, lowp, grouped or general"; exit 2 ;; esac
bin=${GEMM_BIN:-$root/build/bin}
kernels=$root/bench/kernels
shapes=$root/bench/shapes
mkdir -p "$out/bundles" "$out/sim"
rm -f "$out"/bundles/* "$out"/sim/* "$out"/*.mlir "$out"/*.groups
: > "$out/sim.log"

# Compiles every kernel of each file to bundles.
compile() {
  local file
  for file in "$@"; do
    "$bin/gemm-opt" "$file" --gemm-to-ptx="output-dir=$out/bundles" -o /dev/null
  done
}

# One gemm-sim call on FILE with the options after it; a failing run is
# a FAIL line of the log.
run_sim() {
  local file=$1
  shift
  "$bin/gemm-sim" "$file" "$@" --sms 8 --seed "$seed" --dump-dir "$out/sim" \
    >> "$out/sim.log" || echo "FAIL gemm-sim exit $?: $file $*" >> "$out/sim.log"
}

# Simulates the kernels of FILE (gemm-sim options after SHAPES, e.g.
# --kernel NAME) on every problem of the shapes file SHAPES: "M N K" lines
# together in one call, "M N K BATCH [BROADCAST]" (a batch, BROADCAST a or
# b) and "gM_0,M_1,... N K" (a grouped problem, the rows of each group as
# gemm-runner --groups takes them) and "pM_0xN_0xK_0-M_1xN_1xK_1-..." (a
# general grouped problem, written as an "M N K" file for
# --group-problems) one call each.
simulate() {
  local file=$1 list=$2 first n k batch broadcast plain=()
  shift 2
  while read -r first n k batch broadcast; do
    [[ -z "$first" || "$first" == \#* ]] && continue
    if [[ "$first" == p* ]]; then
      tr -- - '\n' <<< "${first#p}" | tr x ' ' > "$out/$first.groups"
      run_sim "$file" "$@" --group-problems "$out/$first.groups"
    elif [[ "$first" == g* ]]; then
      run_sim "$file" "$@" --groups "${first#g}" --n "$n" --k "$k"
    elif [ -n "$batch" ]; then
      run_sim "$file" "$@" --shape "${first}x${n}x${k}x${batch}" \
        ${broadcast:+--broadcast "$broadcast"}
    else
      plain+=(--shape "${first}x${n}x${k}")
    fi
  done < "$list"
  [ ${#plain[@]} -eq 0 ] || run_sim "$file" "$@" "${plain[@]}"
}

# selected=(--kernel NAME ...): the gemm.matmul ops of FILE whose line, after
# the name, matches the sed regular expression TAIL (to the line's end).
kernels_where() {
  local file=$1 tail=$2 name
  selected=()
  for name in $(sed -n "s/^gemm.matmul @\([a-z0-9_]*\) .*$tail\$/\1/p" "$file"); do
    selected+=(--kernel "$name")
  done
}

if [ "$part" = all ] || [ "$part" = sm90 ]; then
  layouts=(sm90_bf16_ambkcr_128x256_coop_c2x1 sm90_bf16_akbncr_64x256_pingpong_c1x2
           sm90_f16_ambncr_128x128_pingpong sm90_bf16_akbkcc_128x128_coop_f32out
           sm90_bf16_ambkcc_64x128_pingpong_k2 sm90_bf16_akbncc_128x256_coop_c2x1_sk
           sm90_bf16_ambncc_128x256_coop)
  # The chosen layout kernels (each gemm.matmul is its line and the config's).
  for name in "${layouts[@]}"; do
    grep -A1 "^gemm.matmul @$name " "$kernels/sm90-layouts.mlir" \
      || { echo "no kernel $name in bench/kernels/sm90-layouts.mlir"; exit 1; }
  done > "$out/layouts.mlir"
  compile "$kernels/sm90.mlir" "$out/layouts.mlir" "$kernels/sm90-batched.mlir"
  simulate "$kernels/sm90.mlir" "$shapes/sim-h200.txt"
  simulate "$out/layouts.mlir" "$shapes/sim-h200.txt"
  simulate "$kernels/sm90-batched.mlir" "$shapes/sim-h200-batched.txt"
fi

if [ "$part" = all ] || [ "$part" = lowp ]; then
  # The direct and low-precision kernels (issue 19's second part).
  compile "$kernels/direct.mlir" "$kernels/sm90-lowp.mlir"
  simulate "$kernels/direct.mlir" "$shapes/sim-h200-lowp.txt"
  simulate "$kernels/sm90-lowp.mlir" "$shapes/sim-h200-lowp.txt"
  kernels_where "$kernels/sm90-lowp.mlir" ' batched'
  simulate "$kernels/sm90-lowp.mlir" "$shapes/sim-h200-batched.txt" "${selected[@]}"
fi

if [ "$part" = all ] || [ "$part" = grouped ]; then
  # The grouped (MoE) kernels on ragged groups.
  compile "$kernels/sm90-grouped.mlir"
  simulate "$kernels/sm90-grouped.mlir" "$shapes/sim-h200-grouped.txt"
fi

if [ "$part" = all ] || [ "$part" = general ]; then
  # The general grouped kernels: every group its own M, N, K.
  # C's lines must be whole 16-byte chunks: N long for a row-major C, M
  # long for the column-major one (its own problems).
  compile "$kernels/sm90-general.mlir"
  kernels_where "$kernels/sm90-general.mlir" ' c([a-z0-9]*, row) .*'
  simulate "$kernels/sm90-general.mlir" "$shapes/sim-h200-general.txt" "${selected[@]}"
  kernels_where "$kernels/sm90-general.mlir" ' c([a-z0-9]*, col) .*'
  simulate "$kernels/sm90-general.mlir" "$shapes/sim-h200-general-ccol.txt" "${selected[@]}"
fi

grep '^gemm-sim:' "$out/sim.log"
if grep -q '^FAIL' "$out/sim.log"; then
  echo "the simulator failed (see $out/sim.log)"; exit 1
fi
echo "$(ls "$out"/sim/*.bin | wc -l) C dumps ($(ls "$out"/sim/ | grep -c '\.amax$') amax)" \
     "of $(ls "$out"/bundles/*.json | wc -l) kernels"

if ! ls "$root"/.device/nlohmann-json3-dev_*.deb > /dev/null 2>&1; then
  mkdir -p "$root/.device"
  (cd "$root/.device" && apt-get download nlohmann-json3-dev > /dev/null)
fi
echo "bundles and simulator outputs in $out ($(du -sh "$out" | cut -f1));" \
     "carry $out and .device to the GPU machine"
