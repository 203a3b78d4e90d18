# Promoted fp8 kernels whose partial sums are computed in column slices
# (2 or 4: .bundles/slices/s2, s4, compiled here from .bundles/slices/k.mlir
# with the slice count forced), beside the promoted tiles the library has
# and fast accumulation, each kernel beside cuBLASLt in its own process on
# the shapes of SHAPES (training shapes), ROUNDS rounds in alternating
# order, gemm-runner --bench (GPU timing), --check in round 1; then the
# median ratio to cuBLASLt per kernel and shape, and their geomean.
#
#   SHAPES=FILE ROUNDS=2 bash ab.sh RESULTS DIR/KERNEL...
set -u
R=${1:?results directory}; shift
kernels=("$@")
mkdir -p $R/runs
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv > $R/gpu.txt
cp "$SHAPES" $R/shapes.txt
for ((round = 1; round <= ${ROUNDS:-2}; round++)); do
  order=("${kernels[@]}")
  if [ $((round % 2)) -eq 0 ]; then
    order=(); for ((i = ${#kernels[@]} - 1; i >= 0; i--)); do order+=("${kernels[i]}"); done
  fi
  check=(); [ $round -eq 1 ] && check=(--check)
  for k in "${order[@]}"; do
    timeout 150 $runner .bundles/slices/$k.json --shapes $R/shapes.txt "${check[@]}" --bench --vs cublas \
      --warmup 10 --iters 30 --timeout-ms 20000 --json $R/runs/${k//\//-}-r$round.json > $R/runs/${k//\//-}-r$round.log 2>&1 ||
      echo "$k round $round failed: $(tail -2 $R/runs/${k//\//-}-r$round.log)"
  done
  echo "round $round done ($SECONDS s)"
done
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv >> $R/gpu.txt
python3 - "$R" "${ROUNDS:-2}" "${kernels[@]}" <<'PY'
import json, math, statistics, sys
results, rounds, kernels = sys.argv[1], int(sys.argv[2]), [k.replace("/", "-") for k in sys.argv[3:]]
ratio, tflops, checks = {}, {}, {}
for k in kernels:
    for r in range(1, rounds + 1):
        try:
            data = json.load(open(f"{results}/runs/{k}-r{r}.json"))
        except (OSError, ValueError):
            continue
        for x in data["results"]:
            shape = (x["m"], x["n"], x["k"])
            if "check" in x:
                checks.setdefault(k, []).append(x["check"]["passed"])
            b = x.get("bench")
            if not b:
                continue
            ratio.setdefault(shape, {}).setdefault(k, []).append(b["ours"]["tflops"] / b["cublas"]["tflops"])
            tflops.setdefault(shape, {}).setdefault(k, []).append(b["ours"]["tflops"])
print("Median ratio to cuBLASLt (TFLOP/s of ours in brackets)\n")
print("| shape | " + " | ".join(kernels) + " |")
print("|---|" + "---:|" * len(kernels))
logs = {k: [] for k in kernels}
for shape in ratio:
    row = []
    for k in kernels:
        v = ratio[shape].get(k)
        if v:
            m = statistics.median(v); logs[k].append(math.log(m))
            row.append(f"{m:.3f} ({statistics.median(tflops[shape][k]):.0f})")
        else:
            row.append("-")
    print(f"| {shape[0]}x{shape[1]}x{shape[2]} | " + " | ".join(row) + " |")
print("\ngeomean: " + ", ".join(f"{k} {math.exp(sum(l) / len(l)):.3f}" for k, l in logs.items() if l))
print("checks: " + ", ".join(f"{k} {sum(1 for c in v if c)}/{len(v)}" for k, v in checks.items()))
PY
tar -C $R -czf $R/runs.tgz runs && rm -rf $R/runs
