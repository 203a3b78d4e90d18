# Issue 16, call 1: tall problems with a narrow N, where each A row-block
# is loaded by every N tile (two or three): 128x{128,144,192} cooperative
# in 1x2 clusters (A multicast to the pair of N tiles), compiled here from
# .bundles/c12/probe.mlir (a copy: scripts/probe.mlir; not library candidates), against their 1x1
# twins of the library, beside cuBLASLt, two rounds in alternating order,
# on training and made-up shapes (scripts/shapes.txt). Nothing from the
# test set. Output to $OUT as it is written (at most 8 files come back).
set -u
D=bench/results/2026-11-29-h200-a-multicast/scripts
R=$OUT/c1; mkdir -p $R; L=/tmp/a1; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
grep -v '^#' $D/shapes.txt > /tmp/shapes.txt
for round in 1 2; do
  for t in 128x128 128x144 128x192; do
    order="c1x1 c1x2"; [ $round = 2 ] && order="c1x2 c1x1"
    for c in $order; do
      n=sm90_bf16_${t}x64_coop_${c}_rm_s8_st0
      b=.device/full/kernels/$n.json; [ $c = c1x2 ] && b=.bundles/c12/$n.json
      timeout 120 $runner $b --shapes /tmp/shapes.txt --check --bench --vs cublas --warmup 10 --iters 30 \
        --json $L/$n-r$round.json > $L/$n-r$round.log 2>&1 || echo "$n round $round exit $?"
    done
  done
  echo "round $round ($SECONDS s)"
done
grep -h "check FAIL" $L/*.log | head
python3 - $L > $R/summary.md <<'PY'
import json, sys, glob, os, statistics, collections
t = collections.defaultdict(list)
for f in glob.glob(f"{sys.argv[1]}/*.json"):
    n = os.path.basename(f)[:-5].rsplit("-", 1)[0]
    for x in json.load(open(f)).get("results", []):
        b = x.get("bench") or {}
        if "ours" in b:
            t[(n, x["m"], x["n"], x["k"])].append((b["ours"]["median_ms"] * 1e3, b["cublas"]["median_ms"] / b["ours"]["median_ms"]))
names = sorted({k[0] for k in t})
shapes = sorted({k[1:] for k in t})
print("| M x N x K | " + " | ".join(n.replace("sm90_bf16_", "").replace("x64_coop", "").replace("_rm_s8_st0", "") for n in names) + " |")
print("|---|" + "---:|" * len(names))
for s in shapes:
    print(f"| {s[0]}x{s[1]}x{s[2]} | " + " | ".join(
        f"{statistics.median(r for _, r in t[(n, *s)]):.3f}" if t.get((n, *s)) else "-" for n in names) + " |")
PY
cat $R/summary.md
tar -C /tmp -czf $R/logs.tgz a1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"
