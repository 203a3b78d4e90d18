# Timing of kernel bundles beside one another: each DIR/KERNEL
# (.bundles/DIR/KERNEL.json) beside cuBLASLt in its own process on eight
# shapes, 3 rounds in alternating order, gemm-runner --bench (GPU timing);
# then the median ratio to cuBLASLt of each kernel, per shape and geomean.
#
#   bash trial.sh RESULTS DIR/KERNEL...
#
# SHAPES=FILE times FILE's shapes instead of the eight below (added after
# this directory's calls, which ran with the eight).
set -u
R=${1:?results directory}; shift
kernels=("$@")
mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv > $R/gpu.txt
if [ -n "${SHAPES:-}" ]; then
  cp "$SHAPES" $R/shapes.txt
else
  printf '%s\n' "4096 4096 4096" "8192 8192 8192" "2048 28672 8192" "1024 8192 8192" \
    "512 8192 28672" "2048 8192 28672" "128 8192 8192" "64 28672 8192" > $R/shapes.txt
fi
for round in 1 2 3; do
  order=("${kernels[@]}")
  if [ $((round % 2)) -eq 0 ]; then
    order=(); for ((i = ${#kernels[@]} - 1; i >= 0; i--)); do order+=("${kernels[i]}"); done
  fi
  for k in "${order[@]}"; do
    timeout 150 $runner .bundles/$k.json --shapes $R/shapes.txt --bench --vs cublas --warmup 10 \
      --iters 30 --timeout-ms 20000 --json $R/$(basename $k)-r$round.json > /dev/null 2>&1 ||
      echo "$k round $round failed"
  done
done
python3 - "$R" "${kernels[@]}" <<'PY'
import json, math, statistics, sys, os
results, kernels = sys.argv[1], [os.path.basename(k) for k in sys.argv[2:]]
ratio = {}
for k in kernels:
    for r in (1, 2, 3):
        for x in json.load(open(f"{results}/{k}-r{r}.json"))["results"]:
            b = x["bench"]
            ratio.setdefault((x["m"], x["n"], x["k"]), {}).setdefault(k, []).append(
                b["ours"]["tflops"] / b["cublas"]["tflops"])
print("| shape | " + " | ".join(kernels) + " |")
print("|---|" + "---|" * len(kernels))
logs = {k: [] for k in kernels}
for shape, v in ratio.items():
    m = {k: statistics.median(v[k]) for k in kernels}
    for k in kernels: logs[k].append(math.log(m[k]))
    print(f"| {shape[0]}x{shape[1]}x{shape[2]} | " + " | ".join(f"{m[k]:.3f}" for k in kernels) + " |")
print("\ngeomean of the median ratio to cuBLASLt: " +
      ", ".join(f"{k} {math.exp(sum(l) / len(l)):.3f}" for k, l in logs.items()))
PY
