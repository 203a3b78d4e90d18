# Session 11, call 6: the test set in GPU time (--timing gpu) through the
# model refitted on GPU time (selection-test-new) and the previous model
# (selection-test-old, session 10's), one kernel library, interleaved with
# cuBLASLt; the training set through the new model; the tiny problems'
# fixed cost in both timings, three processes each.
set -u
R=/tmp/s11f; rm -rf $R; mkdir -p $R $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
export GEMM_RUNNER=$runner
for t in gpu call; do
  for s in "1 1 1" "8 8 8" "64 64 64" "128 128 128"; do
    set -- $s
    for round in 1 2 3; do
      $runner --library .device/kernels --dtype bf16 --m $1 --n $2 --k $3 --bench --vs cublas \
        --timing $t --warmup 50 --iters 300 --json $R/tiny-$t-$1x$2x$3-r$round.json > /dev/null 2>&1
    done
  done
done
python3 - <<'PY' > $R/tiny.md
import glob, json, statistics
rows = {}
for p in sorted(glob.glob("/tmp/s11f/tiny-*.json")):
    key = p.split("tiny-")[1].rsplit("-r", 1)[0]
    b = json.load(open(p))["results"][0]["bench"]
    rows.setdefault(key, ([], []))
    rows[key][0].append(b["ours"]["median_ms"] * 1e3); rows[key][1].append(b["cublas"]["median_ms"] * 1e3)
print("| timing, problem | ours us | cuBLASLt us |\n|---|---:|---:|")
for k, (o, c) in rows.items():
    print(f"| {k} | {statistics.median(o):.2f} | {statistics.median(c):.2f} |")
PY
cat $R/tiny.md; echo "tiny ($SECONDS s)"
for sel in new old; do
  SHAPE_GROUPS=test SELECTION=.bundles/s11/selection-test-$sel.json L2=warm timeout 150 bash bench/suite.sh .device/kernels $R/test-$sel > $R/test-$sel.log 2>&1
  echo "test $sel exit $? ($SECONDS s)"
done
SHAPE_GROUPS=train SELECTION=.bundles/s11/selection-train-new.json L2=warm timeout 100 bash bench/suite.sh .device/kernels $R/train-new > $R/train-new.log 2>&1
echo "train new exit $? ($SECONDS s)"
rm -rf $R/*/runs
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -czf $OUT/s11f.tgz s11f
