# A/B timing of block-wise fp8 mainloop variants, each built with a
# temporary compiler switch (GEMM_EXP_*, never committed; ../README.md says
# which switch built which variant) into .bundles/bf8-VARIANT, beside the
# promoted per-tensor kernels: gemm-runner --bench (GPU timing) on six
# shapes (the 64x128 pingpong tile for M <= 128, else 128x128), three
# rounds interleaved, medians. ab.md gets each variant's TFLOP/s and its
# ratio to the per-tensor kernel.
#
#   bash ab.sh VARIANT:KERNEL...    e.g. ab.sh s12:bf_block inv:bf_block s12:bf_t
#
# KERNEL is bf_block (a block-wise variant) or bf_t (the per-tensor
# baseline: exactly one).
set -u
variants=("$@")
[ ${#variants[@]} -ge 2 ] || { echo "usage: ab.sh VARIANT:KERNEL... (one of them :bf_t)"; exit 2; }
R=/tmp/ab; mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
for round in 1 2 3; do
  for s in "4096 4096 4096" "8192 8192 8192" "1024 8192 8192" "2048 28672 8192" "128 8192 28672" "64 8192 28672"; do
    set -- $s
    if [ $1 -le 128 ]; then t=64x128_pp; else t=128x128; fi
    for v in "${variants[@]}"; do
      d=${v%%:*}; k=${v#*:}_$t
      "$runner" .bundles/bf8-$d/$k.json --m $1 --n $2 --k $3 --bench --warmup 10 --iters 30 \
        --json $R/$d-$k-$1x$2x$3-r$round.json > /dev/null 2>&1 || echo "fail $v $s"
    done
  done
done
KINDS="${variants[*]}" python3 - <<'PY' > $R/ab.md
import glob, json, os, statistics
kinds = [v.split(":")[0] for v in os.environ["KINDS"].split() if not v.endswith(":bf_t")]
t = {}
for p in glob.glob("/tmp/ab/*.json"):
    v, rest = os.path.basename(p).split("-", 1)
    shape = rest.rsplit("-r", 1)[0].rsplit("-", 1)[1]
    kind = "t" if "bf_t_" in rest else v
    d = json.load(open(p))["results"][0]["bench"]["ours"]
    t.setdefault(shape, {}).setdefault(kind, []).append(d["tflops"])
print("TFLOP/s (medians of 3 rounds) and ratio to the promoted per-tensor kernel\n")
print("| shape | per-tensor | " + " | ".join(kinds) + " |")
print("|---|---|" + "---|" * len(kinds))
r = {k: [] for k in kinds}
for s in sorted(t):
    m = {k: statistics.median(x) for k, x in t[s].items()}
    for k in kinds: r[k].append(m[k] / m["t"])
    print(f"| {s} | {m['t']:.1f} | " + " | ".join(f"{m[k]:.1f} ({m[k]/m['t']:.3f})" for k in kinds) + " |")
g = statistics.geometric_mean
print("\ngeomean ratio to per-tensor: " + ", ".join(f"{k} {g(r[k]):.3f}" for k in kinds))
PY
cat $R/ab.md
tar -C /tmp -cJf $OUT/ab.tar.xz ab/ab.md ab/gpu.txt
