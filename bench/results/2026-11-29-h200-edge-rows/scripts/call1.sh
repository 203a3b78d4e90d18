# Call 1: 128-, 192- and 256-row tiles whose last row of tiles reaches past
# M, loading A in one box (main: .device/kernels-slices3.tar.xz, the
# shipped library) against 16-row boxes with those at or past M skipped
# (.bundles/edge/new: scripts/kernels.mlir compiled by this change), each
# beside cuBLASLt in its own process, two rounds in alternating order,
# --check in round 1; N = K = 8192 and M from one tile to three.
set -u
R=$OUT/${C:-call1}; mkdir -p $R/runs
mkdir -p .device/s3 && tar -C .device/s3 -xJf .device/kernels-slices3.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv > $R/gpu.txt
printf '%s\n' "128 8192 8192" "160 8192 8192" "193 8192 8192" "224 8192 8192" "256 8192 8192" \
  "320 8192 8192" "384 8192 8192" "450 8192 8192" "600 8192 8192" > $R/shapes.txt
kernels=$(grep -o '@sm90_[a-z0-9_]*' bench/results/2026-11-29-h200-edge-rows/scripts/kernels.mlir | tr -d @)
for round in 1 2; do
  order="main new"; [ $round = 2 ] && order="new main"
  check=(); [ $round = 1 ] && check=(--check)
  for k in $kernels; do
    for v in $order; do
      dir=.device/s3/kernels; [ $v = new ] && dir=.bundles/edge/${NEW:-new}
      timeout 150 $runner $dir/$k.json --shapes $R/shapes.txt "${check[@]}" --bench --vs cublas \
        --warmup 10 --iters 30 --json $R/runs/$v-r$round-$k.json > $R/runs/$v-r$round-$k.log 2>&1 ||
        echo "$v $k round $round failed: $(tail -1 $R/runs/$v-r$round-$k.log)"
    done
  done
  echo "round $round done ($SECONDS s)"
done
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv >> $R/gpu.txt
python3 - $R <<'PY'
import glob, json, math, os, statistics, sys
runs, checks = {}, []
for path in glob.glob(sys.argv[1] + "/runs/*.json"):
    v, r, k = os.path.basename(path)[:-5].split("-", 2)
    for x in json.load(open(path))["results"]:
        if "check" in x:
            checks.append(x["check"]["passed"])
        b = x["bench"]
        runs.setdefault((k, x["m"]), {}).setdefault(v, []).append(
            (b["ours"]["median_ms"] * 1e3, b["cublas"]["median_ms"] * 1e3))
print("| kernel | M | main us | new us | new / main time | new vs cuBLASLt |")
print("|---|---:|---:|---:|---:|---:|")
for (k, m), v in sorted(runs.items()):
    if "main" not in v or "new" not in v: continue
    o = statistics.median(t for t, _ in v["main"]); n = statistics.median(t for t, _ in v["new"])
    c = statistics.median(c for _, c in v["main"] + v["new"])
    print(f"| {k.replace('sm90_', '').replace('_c1x1_rm_s8_st0', '')} | {m} | {o:.1f} | {n:.1f} | {n / o:.3f} | {c / n:.3f} |")
print(f"\nchecks: {sum(checks)} of {len(checks)} passed")
PY
tar -C $R -czf $R/runs.tgz runs && rm -rf $R/runs
