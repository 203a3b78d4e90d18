#!/usr/bin/env bash
# Grouped (MoE) GEMM on the H200 (issue 17), in one call of at most ~8
# minutes: builds gemm-runner, checks every grouped kernel
# (bench/kernels/sm90-grouped.mlir) over ragged groups (M_g = 0, 1, 63, 64,
# 65, 1000, random sizes; N and K not multiples of the tile), runs
# compute-sanitizer (memcheck, racecheck) on small ones, and times the
# kernels on MoE shapes beside cuBLASLt (once per group, --vs cublas) and
# torch._grouped_mm (bench/grouped-torch.py, same group sizes, same
# session): 8 experts x N 14336 x K 4096 (top-2 of 8192 tokens), 64 and 256
# experts x 2048 x 7168 (top-8 of 16384 tokens), 128 experts x 768 x 2048
# (top-8 of 16384 tokens), uniform random routing. Writes RESULTS/results.md
# (the tables), the runner logs and JSON.
#
#   bench/grouped-h200.sh RESULTS
#
# Carried in the working tree (made on the machine with the compiler):
#   gemm-opt bench/kernels/sm90-grouped.mlir --gemm-to-ptx="output-dir=.bundles/grouped"
# and .device/nlohmann-json3-dev_*.deb where the machine lacks nlohmann-json
# (bench/lib/build-runner.sh). ITERS (default 20) sets the timed runs, JOBS
# (default 4) the concurrent correctness checks. SET (issue, train, test or
# heldout: bench/grouped-torch.py --set) picks the timed problems; PART=speed
# times them alone (no correctness or sanitizer runs), as the training run of
# the dispatcher's grouped residuals does; CUBLAS=0 leaves out the per-group
# cuBLASLt baseline (half the time; the fit needs only ours and torch's):
#   PART=speed SET=train ITERS=10 bench/grouped-h200.sh RESULTS
#   python -m gemm_bench.fit grouped ISSUE/results.md RESULTS/results.md \
#     --model bench/tuning/sm90-h200-model.json
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundles=$root/.bundles/grouped
[ -d "$bundles" ] || { echo "missing $bundles (see the header)"; exit 2; }
source "$root/bench/lib/grouped-common.sh"
bench_start "${1:?results directory}"

part=${PART:-all}
case "$part" in all | speed) ;; *) echo "PART: all or speed"; exit 2 ;; esac
: > "$results/check/summary.txt"
: > "$results/sanitizer/summary.txt"
if [ "$part" = all ]; then
# ---- correctness: every kernel over ragged groups, JOBS at a time ---------
{ for m in "$bundles"/*.json; do
    echo "$m --groups 0,1,63,64,65,1000,0,127,128,129 --n 264 --k 136"
    echo "$m --groups 1000,0,0,1 --n 1000 --k 1024"
    echo "$m --groups random:16:3000:1 --n 512 --k 256"
    echo "$m --groups random:64:5000:2 --n 256 --k 64"
    echo "$m --groups 1 --n 8 --k 8"
    echo "$m --groups 0,0,300,0 --n 384 --k 4096"
  done; } | check_runs "$results/check/summary.txt"

# ---- compute-sanitizer on small problems ---------------------------------
{
  sanitize memcheck "$bundles/sm90_bf16_grouped_128x256_coop_c2x1.json" --groups 0,1,65,200,0,130 --n 264 --k 136 &
  sanitize memcheck "$bundles/sm90_f16_grouped_128x128_coop_f32out.json" --groups 7,0,129 --n 136 --k 72 &
  wait
  sanitize racecheck "$bundles/sm90_bf16_grouped_64x256_pingpong.json" --groups 65,0,3,128 --n 256 --k 128 &
  sanitize memcheck "$bundles/sm90_bf16_grouped_bn_128x256_coop.json" --groups 1,190,0,64 --n 264 --k 136 &
  wait
} > "$results/sanitizer/summary.txt"
cat "$results/sanitizer/summary.txt"
grep -v ": exit 0 " "$results/sanitizer/summary.txt" > /dev/null && status=1
echo "sanitizers done ($(elapsed))"
fi

# ---- speed: MoE shapes, ours and cuBLASLt per group, then torch ----------
# Uniform random top-k routing of the tokens (seeded): the rows per expert
# (bench/grouped-torch.py --set SET).
python3 "$root/bench/grouped-torch.py" --write-plan "$results/bench/plan.txt" --set "${SET:-issue}"
vs=(--vs cublas)
[ "${CUBLAS:-1}" = 0 ] && vs=()
while read -r name n k groups; do
  for bundle in sm90_bf16_grouped_128x256_coop sm90_bf16_grouped_128x256_coop_c2x1 \
                sm90_bf16_grouped_128x256_coop_c1x2 sm90_bf16_grouped_128x128_coop \
                sm90_bf16_grouped_128x128_pingpong sm90_bf16_grouped_64x256_pingpong; do
    json=$results/bench/$name-$bundle.json
    timeout 120 "$runner" "$bundles/$bundle.json" --groups "$groups" --n "$n" --k "$k" \
      --bench ${vs[@]+"${vs[@]}"} --warmup 5 --iters "${ITERS:-20}" --json "$json" \
      > "${json%.json}.log" 2>&1 || status=1
    echo "$name $bundle $json" >> "$results/bench/runs.txt"
  done
  echo "$name timed ($(elapsed))"
done < "$results/bench/plan.txt"
PYTHONUNBUFFERED=1 timeout 180 python3 "$root/bench/grouped-torch.py" "$results/bench/plan.txt" \
  --iters "${ITERS:-20}" > "$results/bench/torch.jsonl" 2> "$results/bench/torch.err" || status=1
echo "torch timed ($(elapsed))"

# ---- the tables ----------------------------------------------------------
python3 - "$results" <<'PY' > "$results/results.md"
import json, os, sys
results = sys.argv[1]
print("# Grouped (MoE) GEMM on the H200\n")
summary = open(os.path.join(results, "check", "summary.txt")).read().splitlines()
ok = sum(" exit 0 " in line for line in summary)
print(f"## Correctness\n\n{ok} of {len(summary)} gemm-runner --check runs pass:\n\n```")
print("\n".join(summary))
print("```\n\n## compute-sanitizer\n\n```")
print(open(os.path.join(results, "sanitizer", "summary.txt")).read().rstrip())
print("```\n")
torch = {}
for line in open(os.path.join(results, "bench", "torch.jsonl")):
    r = json.loads(line)
    torch[r["name"]] = r
print("## Speed (bf16, medians; ours includes the group-table prep kernel)\n")
print("cuBLASLt: one call per non-empty group in one timed loop, interleaved with ours; "
      "torch: torch._grouped_mm on the same group sizes, timed after.\n")
print("| problem | kernel | ours TFLOP/s | cuBLASLt/group TFLOP/s | torch TFLOP/s | ours/torch | ours/cuBLASLt |")
print("|---|---|---|---|---|---|---|")
for line in open(os.path.join(results, "bench", "runs.txt")):
    name, bundle, path = line.split()
    t = torch.get(name, {}).get("tflops")
    try:
        r = json.load(open(path))["results"][0]["bench"]
        ours = r["ours"]["tflops"]
        cublas = r["cublas"]["tflops"] if "cublas" in r else None
    except (OSError, KeyError, IndexError, ValueError):
        print(f"| {name} | {bundle} | failed | | {t or ''} | | |")
        continue
    ratio = f"{ours / t:.3f}" if t else ""
    vs_cublas = (f"{cublas:.1f} | {ours / cublas:.3f}" if cublas else "- | -").split(" | ")
    print(f"| {name} | {bundle} | {ours:.1f} | {vs_cublas[0]} | {t or 0:.1f} | {ratio} | {vs_cublas[1]} |")
print("\ntorch details:\n\n```")
for r in torch.values():
    print(json.dumps(r))
print("```")
PY
cat "$results/results.md"
bench_end
exit $status
