# Session 11, call 5: a trial of narrow tiles of the transposed problem for
# M <= 64 (cuBLASLt runs 64x48 to 64x88 tiles with the small M along the
# tile's narrow side and 11-15 stages there, call 4): akbkcc 64x16 to
# 64x64 pingpong (13-25 ring stages), and 2x1 and 4x1 clusters of some.
# Checks, then both training sets' shapes with M <= 128, GPU time.
set -u
R=$OUT/c5; mkdir -p $R
snap() { tar -C $OUT -czf $OUT/c5.tgz c5; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $R/check.log bench/shapes/narrow-check.txt .bundles/s11exp/sm90*.json) ($SECONDS s)"
snap
export PYTHONPATH=$PWD/python
for set in train train2; do
  timeout 200 python3 -m gemm_bench.fit measure --plan .bundles/s11exp/plan-$set.json --runner "$runner" --bundles .bundles/s11exp --work $R/fit-$set --warmup 3 --iters 10 > $R/fit-$set.log 2>&1
  echo "measure $set exit $? ($SECONDS s)"
  python3 -m gemm_bench.fit collect $R/fit-$set --out $R/measurements-$set.json | tail -1
  rm -rf $R/fit-$set
  snap
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"; snap
