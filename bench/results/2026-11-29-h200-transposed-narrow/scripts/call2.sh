# Issue 16, call 2: the eight transposed narrow candidates added to
# gemm_bench.fit.CANDIDATES, timed on both training sets for the model's fit
# (`fit measure`, 3 warm-ups, 10 runs, GPU timing), their bundles from
# .bundles/tnarrow (scripts/probe.mlir). The plans, written here:
#   python -m gemm_bench.fit plan --shapes bench/shapes/train.txt \
#     --only-match 'akbkcc_(64x(16|24|32)x64_pingpong|128x16x64_coop)' --json .bundles/tnfit/plan-train.json
#   (train2 likewise)
set -u
R=$OUT/call2; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
export PYTHONPATH=$PWD/python
for t in train train2; do
  timeout 200 python3 -m gemm_bench.fit measure --plan .bundles/tnfit/plan-$t.json --runner "$runner" \
    --bundles .bundles/tnarrow --work /tmp/fit-$t --warmup 3 --iters 10 > $R/fit-$t.log 2>&1
  echo "measure $t exit $? ($SECONDS s)"
  python3 -m gemm_bench.fit collect /tmp/fit-$t --out $R/measurements-$t.json | tail -1
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
rm -f $R/build.log
echo "done $SECONDS s"
