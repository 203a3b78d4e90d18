# Issue 16, third call: narrow 64-row pingpong tiles without split-K
# (scripts/probe.mlir: 64x16, 64x24, 64x32, 64x48, carried in
# .bundles/narrow64) on the training set's 51 problems with M <= 64 and on
# call 2's M = 16 / 64, N = 4096 sweep, beside cuBLASLt, and the library's
# pick (main's model and library) on the same problems, one process each.
set -u
R=/tmp/s3; mkdir -p $R
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
awk '!/^#/ && NF >= 3 && $1 <= 64 {print $1, $2, $3}' bench/shapes/train.txt > $R/train64.shapes
for m in 16 64; do for k in 512 1024 2048 4096 8192 16384; do echo "$m 4096 $k"; done; done > $R/stream.shapes
for set in train64 stream; do
  for b in .bundles/narrow64/*.json; do
    name=$(basename $b .json)
    timeout 150 $runner $b --shapes $R/$set.shapes --bench --vs cublas --warmup 10 --iters 30 \
      --timeout-ms 20000 --json $R/$set-$name.json > $R/$set-$name.log 2>&1
    echo "$set $name: exit $?"
  done
  while read -r m n k; do
    timeout 60 $runner --library .device/full/kernels --dtype bf16 --m $m --n $n --k $k --bench --vs cublas \
      --warmup 10 --iters 30 --timeout-ms 20000 --json $R/$set-pick-${m}x${n}x${k}.json > $R/$set-pick-${m}x${n}x${k}.log 2>&1 ||
      echo "pick $m $n $k failed"
  done < $R/$set.shapes
done
python3 - $R <<'PY'
import json, sys, glob, os, math, statistics
R = sys.argv[1]
for s in ("train64", "stream"):
    ratio = {}
    for f in glob.glob(f"{R}/{s}-*.json"):
        who = os.path.basename(f)[len(s) + 1:-5]
        who = "pick" if who.startswith("pick-") else who.replace("sm90_bf16_", "").replace("_c1x1_rm_s8_st0", "")
        for x in json.load(open(f))["results"]:
            b = x["bench"]
            ratio.setdefault((x["m"], x["n"], x["k"]), {})[who] = (
                b["cublas"]["median_ms"] / b["ours"]["median_ms"], b["ours"]["median_ms"] * 1000)
    kinds = sorted({k for v in ratio.values() for k in v})
    print(f"## {s}: ratio to cuBLASLt (us)")
    print("| M | N | K | " + " | ".join(kinds) + " |")
    for shape in sorted(ratio):
        v = ratio[shape]
        print(f"| {shape[0]} | {shape[1]} | {shape[2]} | " +
              " | ".join(f"{v[k][0]:.3f} ({v[k][1]:.1f})" if k in v else "-" for k in kinds) + " |")
    logs = {k: [math.log(v[k][0]) for v in ratio.values() if k in v] for k in kinds}
    best = [math.log(max(v[k][0] for k in v)) for v in ratio.values()]
    print("geomean: " + ", ".join(f"{k} {math.exp(sum(l) / len(l)):.3f}" for k, l in logs.items()) +
          f", best of all {math.exp(sum(best) / len(best)):.3f}")
PY
rm -f $R/build.log
tar -C /tmp -cJf $OUT/s3.tar.xz s3
echo "done ($SECONDS s)"
