#!/usr/bin/env bash
# General grouped GEMM on the H200 (issue 17's general form), in one call of
# at most ~6 minutes: builds gemm-runner, checks every general grouped kernel
# (bench/kernels/sm90-general.mlir: K-major, M-major A + N-major B,
# column-major C, f16 -> f32, pingpong, a 2x1 cluster) over problems whose
# groups differ in M, N and K (M_g = 0 and N_g = 0 groups, odd sizes, K not a
# multiple of the tile, padded leading dimensions, random ones), checks that
# bad records (K = 0 with M, N > 0, negative sizes) are refused by the host
# and by the prep kernel (--group-checks device) with the group named, runs
# compute-sanitizer memcheck on small problems, and times the kernels
# (ours: the prep kernel + the GEMM) beside cuBLASLt called once per group
# (--vs cublas) on mixed shapes. Writes RESULTS/results.md (the tables), the
# runner logs and JSON.
#
#   bench/general-h200.sh RESULTS
#
# Carried in the working tree (made on the machine with the compiler):
#   gemm-opt bench/kernels/sm90-general.mlir --gemm-to-ptx="output-dir=.bundles/general"
# and .device/nlohmann-json3-dev_*.deb where the machine lacks nlohmann-json
# (bench/lib/build-runner.sh). ITERS (default 15) sets the timed runs, JOBS
# (default 4) the concurrent correctness checks, SPEED=0 skips the timing.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundles=$root/.bundles/general
[ -d "$bundles" ] || { echo "missing $bundles (see the header)"; exit 2; }
source "$root/bench/lib/grouped-common.sh"
bench_start "${1:?results directory}"
problems=$results/problems
mkdir -p "$problems"

# ---- the problems: one "M N K" per group ----------------------------------
# Ragged: M_g = 0, N_g = 0, 1, odd M and K, K past several k-blocks and not
# a multiple of 64, N not a multiple of the tile, a large group. C's lines
# are whole 16-byte chunks (general::storesWholeChunks): N a multiple of 8
# here, and M for the column-major C kernel (ragged-ccol.txt: N odd instead).
cat > "$problems/ragged.txt" <<'EOF'
0 64 64
1 8 8
65 136 520
128 256 64
0 8 8
77 72 73
300 72 4104
129 0 64
1000 1032 1000
7 8 8
5 8 1
33 264 136
EOF
awk '{ print $2, $1, $3 }' "$problems/ragged.txt" > "$problems/ragged-ccol.txt"
# Everything empty but one small group.
printf '0 8 8\n0 64 64\n0 0 0\n5 8 1\n' > "$problems/one.txt"
printf '8 0 8\n64 0 64\n0 0 0\n8 5 1\n' > "$problems/one-ccol.txt"
# Larger groups, N and K past a few tiles.
printf '1000 1032 1000\n64 4096 4104\n520 2056 2048\n' > "$problems/large.txt"
cp "$problems/large.txt" "$problems/large-ccol.txt"
# Bad records: K = 0 with M, N > 0 (group 1), a negative M (group 2), C's
# lines not whole 16-byte chunks (group 1, N = 75).
printf '64 64 64\n64 64 0\n8 8 8\n' > "$problems/kzero.txt"
printf '64 64 64\n8 8 8\n-5 8 8\n' > "$problems/negative.txt"
printf '64 64 64\n77 75 73\n' > "$problems/partial.txt"
# Speed: mixed shapes, as a framework would batch them.
python3 - "$problems" <<'PY'
import os, random, sys
out = sys.argv[1]
def write(name, rows):
    with open(os.path.join(out, name + ".txt"), "w") as f:
        f.writelines(f"{m} {n} {k}\n" for m, n, k in rows)
write("uniform8", [(2048, 4096, 4096)] * 8)
write("mixed8", [(2048, 4096, 4096), (1024, 14336, 4096), (4096, 4096, 14336),
                 (3072, 2048, 7168), (512, 7168, 2048), (2048, 1024, 1024),
                 (1536, 6144, 3072), (2560, 3072, 5120)])
rng = random.Random(5)
write("lora64", [(512, rng.choice([1024, 2048, 3072, 4096]),
                  rng.choice([2048, 4096])) for _ in range(64)])
write("small128", [(rng.randint(64, 192), 768, 2048) for _ in range(128)])
write("skewed32", [(rng.choice([0, 16, 128, 1024, 4096]),
                    rng.choice([1024, 4096, 8192]),
                    rng.choice([1024, 4096])) for _ in range(32)])
PY

# ---- correctness: every kernel, JOBS at a time ------------------------------
{ for m in "$bundles"/*.json; do
    suffix=
    case "$m" in *_ccol_*) suffix=-ccol ;; esac
    echo "$m --group-problems $problems/ragged$suffix.txt"
    echo "$m --group-problems $problems/one$suffix.txt"
    echo "$m --group-problems $problems/large$suffix.txt"
    echo "$m --group-problems random:24:1"
    echo "$m --group-problems random:64:2"
  done
  k=$bundles/sm90_bf16_general_128x128_coop.json
  echo "$k --group-problems $problems/kzero.txt expect-exit=2 expect=group 1 (m 64, n 64, k 0): K is 0"
  echo "$k --group-problems $problems/kzero.txt --group-checks device expect-exit=2 expect=the prep kernel refused the group records: group 1 (of 3): K is 0"
  echo "$k --group-problems $problems/negative.txt expect-exit=2 expect=group 2 (m -5, n 8, k 8): M, N or K is negative"
  echo "$k --group-problems $problems/negative.txt --group-checks device expect-exit=2 expect=group 2 (of 3): M, N or K is negative"
  echo "$k --group-problems $problems/partial.txt expect-exit=2 expect=lines of 75 x 2 bytes would have the 5 elements after each overwritten"
  echo "$k --group-problems $problems/partial.txt --group-checks device expect-exit=2 expect=lines are not a multiple of 16 bytes: a TMA store writes"
} | check_runs "$results/check/summary.txt"

# ---- compute-sanitizer memcheck on small problems ---------------------------
printf '0 64 64\n1 8 8\n65 136 72\n130 200 136\n5 8 1\n0 8 8\n' > "$problems/small.txt"
awk '{ print $2, $1, $3 }' "$problems/small.txt" > "$problems/small-ccol.txt"
{
  sanitize memcheck "$bundles/sm90_bf16_general_128x128_coop.json" --group-problems "$problems/small.txt" &
  sanitize memcheck "$bundles/sm90_bf16_general_128x256_coop_c2x1.json" --group-problems "$problems/small.txt" &
  wait
  sanitize memcheck "$bundles/sm90_bf16_general_mn_128x128_coop.json" --group-problems "$problems/small.txt" &
  sanitize memcheck "$bundles/sm90_bf16_general_ccol_128x128_coop.json" --group-problems "$problems/small-ccol.txt" &
  wait
} > "$results/sanitizer/summary.txt"
cat "$results/sanitizer/summary.txt"
grep -v ": exit 0 " "$results/sanitizer/summary.txt" > /dev/null && status=1
echo "sanitizers done ($(elapsed))"

# ---- speed: ours (prep + kernel) and cuBLASLt once per group ----------------
# SPEED=0 leaves it out (the correctness and sanitizer parts alone).
names="uniform8 mixed8 lora64 small128 skewed32"
[ "${SPEED:-1}" = 1 ] || names=
for name in $names; do
  for bundle in sm90_bf16_general_128x256_coop sm90_bf16_general_128x256_coop_c2x1 \
                sm90_bf16_general_128x128_coop sm90_bf16_general_128x128_pingpong; do
    json=$results/bench/$name-$bundle.json
    timeout 90 "$runner" "$bundles/$bundle.json" --group-problems "$problems/$name.txt" \
      --bench --vs cublas --warmup 5 --iters "${ITERS:-15}" --json "$json" \
      > "${json%.json}.log" 2>&1 || status=1
    echo "$name $bundle $json" >> "$results/bench/runs.txt"
  done
  echo "$name timed ($(elapsed))"
done

# ---- the tables ------------------------------------------------------------
python3 - "$results" <<'PY' > "$results/results.md"
import json, os, sys
results = sys.argv[1]
print("# General grouped GEMM on the H200\n")
summary = open(os.path.join(results, "check", "summary.txt")).read().splitlines()
ok = sum(" exit 0 " in line for line in summary)
print(f"## Correctness\n\n{ok} of {len(summary)} gemm-runner --check runs pass "
      "(refused problems: the expected exit code and message):\n\n```")
print("\n".join(summary))
print("```\n\n## compute-sanitizer\n\n```")
print(open(os.path.join(results, "sanitizer", "summary.txt")).read().rstrip())
print("```\n")
print("## Speed (bf16, medians; ours = the prep kernel + the GEMM kernel)\n")
print("cuBLASLt: one call per group with tiles, each its own M, N, K, in one "
      "timed loop, interleaved with ours.\n")
print("| problem | kernel | ours TFLOP/s | cuBLASLt/group TFLOP/s | ours/cuBLASLt |")
print("|---|---|---|---|---|")
runs = os.path.join(results, "bench", "runs.txt")
for line in open(runs) if os.path.exists(runs) else []:
    name, bundle, path = line.split()
    try:
        r = json.load(open(path))["results"][0]["bench"]
        ours, cublas = r["ours"]["tflops"], r["cublas"]["tflops"]
    except (OSError, KeyError, IndexError, ValueError, TypeError):
        print(f"| {name} | {bundle} | failed | | |")
        continue
    print(f"| {name} | {bundle} | {ours:.1f} | {cublas:.1f} | {ours / cublas:.3f} |")
PY
cat "$results/results.md"
bench_end
exit $status
