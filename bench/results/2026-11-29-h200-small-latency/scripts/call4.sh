# Issue 16, fourth call: what the split-K fixup costs. The library's
# split-K pingpong configurations (64x64 and 64x128, 2 and 4 splits) built
# four ways with temporary switches in the compiler (not committed):
# main; GEMM_EXP_NOSTORE (no consumer stores its partial tile); 
# GEMM_EXP_NOLOAD (the last arriver adds no partial); both. The last three
# compute wrong sums: timing only. On call 2's M = 16 / 64, N = 4096,
# K = 512..16384, beside cuBLASLt, two rounds in alternating order; a line
# through time against K per kernel (slope: B bytes per us; intercept: the
# fixed cost). Carry .bundles/skx.
set -u
R=/tmp/s4; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
for m in 16 64; do for k in 512 1024 2048 4096 8192 16384; do echo "$m 4096 $k"; done; done > $R/stream.shapes
kernels=()
for v in main nostore noload neither; do
  for k in sk_64x64_k2 sk_64x64_k4 sk_64x128_k2 sk_64x128_k4; do kernels+=(skx/$v/${k}_$v); done
done
for round in 1 2; do
  order=("${kernels[@]}")
  if [ $round -eq 2 ]; then
    order=(); for ((i = ${#kernels[@]} - 1; i >= 0; i--)); do order+=("${kernels[i]}"); done
  fi
  for k in "${order[@]}"; do
    timeout 100 $runner .bundles/$k.json --shapes $R/stream.shapes --bench --vs cublas --warmup 10 --iters 30 \
      --timeout-ms 20000 --json $R/$(basename $k)-r$round.json > /dev/null 2>&1 || echo "$k round $round failed"
  done
done
python3 - $R "${kernels[@]}" <<'PY'
import json, sys, os, statistics
R, kernels = sys.argv[1], [os.path.basename(k) for k in sys.argv[2:]]
def fit(pts):
    xs = [k * 4096 * 2 / 1e6 for k, _ in pts]; ys = [t for _, t in pts]
    n = len(xs); mx, my = sum(xs) / n, sum(ys) / n
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return 1 / b, my - b * mx
print("| kernel | M | fixed us | B TB/s | cuBLASLt fixed us | at K=4096: ours / cuBLASLt us |")
print("|---|---:|---:|---:|---:|---:|")
for k in kernels:
    t = {}
    for r in (1, 2):
        for x in json.load(open(f"{R}/{k}-r{r}.json"))["results"]:
            b = x["bench"]
            t.setdefault((x["m"], x["k"]), []).append((b["ours"]["median_ms"] * 1000, b["cublas"]["median_ms"] * 1000))
    for m in (16, 64):
        ours = [(kk, statistics.median(v[0] for v in t[(mm, kk)])) for (mm, kk) in sorted(t) if mm == m]
        cub = [(kk, statistics.median(v[1] for v in t[(mm, kk)])) for (mm, kk) in sorted(t) if mm == m]
        (ro, io), (rc, ic) = fit(ours), fit(cub)
        o4 = dict(ours)[4096]; c4 = dict(cub)[4096]
        print(f"| {k} | {m} | {io:.2f} | {ro:.2f} | {ic:.2f} | {o4:.2f} / {c4:.2f} |")
PY
rm -f $R/build.log
tar -C /tmp -cJf $OUT/s4.tar.xz s4
echo "done ($SECONDS s)"
