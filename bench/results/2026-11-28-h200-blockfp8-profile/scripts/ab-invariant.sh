# Upper bound of staging the block scales: the block-wise kernels built with
# loop-invariant scale loads (k-block 0's scales for every k-block; wrong
# results, timing only; .bundles/bf8-inv, GEMM_EXP_INVARIANT=1) beside the
# same kernels from main (.bundles/bf8-s12) and the promoted per-tensor
# kernels. gemm-runner --bench (GPU timing), rounds interleaved, medians.
set -u
R=/tmp/ab; mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
for round in 1 2 3; do
  for s in "4096 4096 4096" "8192 8192 8192" "1024 8192 8192" "2048 28672 8192" "128 8192 28672" "64 8192 28672"; do
    set -- $s
    if [ $1 -le 128 ]; then t=64x128_pp; else t=128x128; fi
    for v in s12:bf_block inv:bf_block s12:bf_t; do
      d=${v%%:*}; k=${v#*:}_$t
      "$runner" .bundles/bf8-$d/$k.json --m $1 --n $2 --k $3 --bench --warmup 10 --iters 30 \
        --json $R/$d-$k-$1x$2x$3-r$round.json > /dev/null 2>&1 || echo "fail $v $s"
    done
  done
done
python3 - <<'PY' > $R/ab.md
import glob, json, os, statistics
t = {}
for p in glob.glob("/tmp/ab/*.json"):
    v, rest = os.path.basename(p).split("-", 1)
    shape = rest.rsplit("-r", 1)[0].rsplit("-", 1)[1]
    kind = "t" if "bf_t_" in rest else v
    d = json.load(open(p))["results"][0]["bench"]["ours"]
    t.setdefault(shape, {}).setdefault(kind, []).append(d["tflops"])
print("| shape | block (main) | block, invariant scales | per-tensor promoted | main / t | invariant / t |")
print("|---|---|---|---|---|---|")
r1, r2 = [], []
for s in sorted(t):
    m = {k: statistics.median(x) for k, x in t[s].items()}
    r1.append(m["s12"] / m["t"]); r2.append(m["inv"] / m["t"])
    print(f"| {s} | {m['s12']:.1f} | {m['inv']:.1f} | {m['t']:.1f} | {r1[-1]:.3f} | {r2[-1]:.3f} |")
g = statistics.geometric_mean
print(f"\ngeomean: main / t {g(r1):.3f}, invariant / t {g(r2):.3f}")
PY
cat $R/ab.md
tar -C /tmp -cJf $OUT/ab.tar.xz ab/ab.md ab/gpu.txt
