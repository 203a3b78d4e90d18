#!/usr/bin/env bash
# On the GPU machine (CUDA, no MLIR): runs each SM90 bundle prepared by
# bench/sim-h200-prepare.sh on the simulator's problems with the same
# small-integer inputs (gemm-runner --inputs small-int) and compares C with
# the simulator's bit for bit (--expect-c): the SM90 kernels, seven operand
# layouts, the batched kernels (broadcast operands included) and the grouped
# (MoE) kernels on ragged groups (gemm-runner --groups, from the dump's
# name: gM_0-M_1-...xNxK; the runner's group table comes from its prep
# kernel on the GPU, the simulator's from the same code on the CPU) and the
# general grouped kernels (gemm-runner --group-problems, a file of "M N K"
# lines written from the dump's name: pM_0xN_0xK_0-M_1xN_1xK_1-...; C is
# all groups' packed buffer, padding and empty groups included, which must
# keep the poison on both sides; the tensor maps come from the prep kernel
# on the GPU, from general::buildGeneralTable on the CPU). Every sum is exact in f32 with
# these inputs, so any difference is a real disagreement between the
# simulator's model of the kernel IR and the GPU running its PTX. The GPU's
# grid (132 SMs) differs from the simulator's (8): C must not depend on it.
# The direct and low-precision kernels are compared the same way (their
# scale factors are the powers of two of gemm/Bundle/TestData.h on both
# sides, so every scaled value is exact too); for a kernel with an amax
# output the amax the GPU wrote (gemm-runner's JSON, check.amax) must have
# the bits of the simulator's (NAME_..._sSEED.amax) as well.
#
#   bench/sim-h200.sh PREPARED_DIR RESULTS_DIR
#   e.g. bench/sim-h200.sh .bundles/sim-h200 "$OUT"
#
# Writes RESULTS_DIR/runner-NAME_PROBLEM_sSEED.log (and .json) per comparison
# and RESULTS_DIR/summary.txt (EQUAL / DIFFER / FAILED per comparison, then
# the counts); exits 1 when any C differs or a run fails. JOBS (default 4)
# comparisons run at a time (the comparison needs no timing).
set -uo pipefail
prepared=${1:?prepared directory (bench/sim-h200-prepare.sh)}
results=${2:?results directory}
mkdir -p "$results"
root=$(cd "$(dirname "$0")/.." && pwd)

source "$root/bench/lib/build-runner.sh"
build_gemm_runner "$results/build.log" || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$results/gpu.txt"

# One comparison: the dump's kernel, problem and seed from its name
# (NAME_MxNxK[xB][_bcX]_sSEED, M gM_0-M_1-... for a grouped problem,
# NAME_pM_0xN_0xK_0-..._sSEED for a general grouped one);
# prints "NAME PROBLEM: RESULT".
compare_one() {
  local dump=$1 base seed rest broadcast shape name m n k batch log args rc line
  local groups
  base=$(basename "$dump" .bin)
  seed=${base##*_s}
  rest=${base%_s*}
  broadcast=
  case "$rest" in
    *_bca) broadcast=0,p,p; rest=${rest%_bca} ;;
    *_bcb) broadcast=p,0,p; rest=${rest%_bcb} ;;
    *_bcab) broadcast=0,0,p; rest=${rest%_bcab} ;;
  esac
  shape=${rest##*_}
  name=${rest%_*}
  IFS=x read -r m n k batch <<< "$shape"
  if [[ "$shape" == p* ]]; then
    # A general grouped problem: its groups as a --group-problems file.
    tr -- - '\n' <<< "${shape#p}" | tr x ' ' > "$results/${base}.groups"
    args=(--group-problems "$results/${base}.groups")
    batch=
  elif [[ "$m" == g* ]]; then
    groups=${m#g}
    args=(--groups "${groups//-/,}" --n "$n" --k "$k")
  else
    args=(--m "$m" --n "$n" --k "$k")
  fi
  [ -n "$batch" ] && args+=(--batch "$batch")
  # Batch strides are not for staged (unaligned, copied) matrices: pad them.
  [ -n "$broadcast" ] && args+=(--batch-strides "$broadcast" --unaligned pad)
  log=$results/runner-${base}.log
  "$runner" "$prepared/bundles/$name.json" "${args[@]}" \
    --seed "$seed" --inputs small-int --expect-c "$dump" \
    --json "$results/runner-${base}.json" > "$log" 2>&1
  rc=$?
  line=$(grep -E '^C (equals|differs|is )' "$log" | head -1)
  # An fp8 output's amax: the simulator's f32 bits against the GPU's.
  if [ -f "${dump%.bin}.amax" ] && [[ "$line" == "C equals"* ]]; then
    local simAmax gpuAmax
    simAmax=$(cut -d' ' -f1 "${dump%.bin}.amax")
    gpuAmax=$(python3 "$root/bench/lib/json-amax-bits.py" \
                "$results/runner-${base}.json")
    if [ "$gpuAmax" = "$simAmax" ]; then
      line="$line; amax $gpuAmax equals the simulator's"
    else
      line="C differs: amax $gpuAmax, the simulator's $simAmax (C equal)"
    fi
  fi
  if [ $rc -eq 0 ] && [[ "$line" == "C equals"* ]]; then
    echo "EQUAL $name $shape${broadcast:+ broadcast $broadcast}: $line"
  elif [[ "$line" == "C differs"* || "$line" == "C is "* ]]; then
    echo "DIFFER $name $shape${broadcast:+ broadcast $broadcast}: $line"
  else
    echo "FAILED $name $shape${broadcast:+ broadcast $broadcast}: exit $rc: $(grep -m1 -i error "$log")"
  fi
}
export -f compare_one
export runner results prepared root
summary=$results/summary.txt
ls "$prepared"/sim/*.bin | xargs -P "${JOBS:-4}" -I{} bash -c 'compare_one "$0"' {} |
  sort -k2 > "$summary"
cat "$summary"
equal=$(grep -c '^EQUAL' "$summary")
differ=$(grep -c '^DIFFER' "$summary")
failed=$(grep -c '^FAILED' "$summary")
status=0
[ "$differ" -eq 0 ] && [ "$failed" -eq 0 ] || status=1
echo "== $equal equal, $differ differ, $failed failed (of $((equal + differ + failed)))" |
  tee -a "$summary"
tar -C "$results" -czf "$results.tar.gz" . 2>/dev/null && echo "results: $results.tar.gz"
exit $status
