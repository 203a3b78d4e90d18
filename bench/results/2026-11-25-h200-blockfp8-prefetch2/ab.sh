# A/B of block-wise fp8 variants in one session: each variant's bundle on
# the same shapes, rounds interleaved, gemm-runner --bench (no cuBLAS).
set -u
R=/tmp/ab; mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
for round in 1 2 3; do
  for s in "4096 4096 4096" "8192 8192 8192" "1024 8192 8192" "2048 28672 8192" "128 8192 28672" "64 8192 28672"; do
    set -- $s
    k=bf_block_128x128; [ $1 -le 128 ] && k=bf_block_64x128_pp
    for v in old new y0.5625; do
      "$runner" .bundles/bf8-$v/$k.json --m $1 --n $2 --k $3 --bench --warmup 10 --iters 30 \
        --json $R/$v-$k-$1x$2x$3-r$round.json > /dev/null 2>&1 || echo "fail $v $k $s"
    done
  done
done
python3 - <<'PY' > $R/ab.md
import glob, json, os, statistics
t = {}
for p in glob.glob("/tmp/ab/*.json"):
    v, rest = os.path.basename(p).split("-", 1)
    key = rest.rsplit("-r", 1)[0]
    d = json.load(open(p))["results"][0]["bench"]["ours"]
    t.setdefault(key, {}).setdefault(v, []).append(d["tflops"])
print("| kernel-shape | old TFLOP/s | prefetch 2 | / old | FFMA yield 9/16 | / old |")
print("|---|---|---|---|---|---|")
ratios = {"new": [], "y0.5625": []}
for key in sorted(t):
    m = {v: statistics.median(x) for v, x in t[key].items()}
    for v in ratios: ratios[v].append(m[v] / m["old"])
    print(f"| {key} | {m['old']:.1f} | {m['new']:.1f} | {m['new']/m['old']:.3f} | {m['y0.5625']:.1f} | {m['y0.5625']/m['old']:.3f} |")
g = lambda v: statistics.geometric_mean(v)
print(f"\ngeomean / old: prefetch 2 {g(ratios['new']):.3f}, FFMA yield {g(ratios['y0.5625']):.3f}")
PY
cat $R/ab.md
tar -C /tmp -cJf $OUT/ab.tar.xz ab/ab.md ab/gpu.txt
