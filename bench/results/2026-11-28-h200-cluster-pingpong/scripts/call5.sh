# Session 10, call 5: 192-row cooperative tiles (three consumer warpgroups
# of 64 rows), 192x80 to 192x192: checks, sanitizers, beside cuBLASLt on
# the shapes of call 4 (where cuBLASLt runs 192-row tiles), and both
# training sets.
set -u
R=$OUT/c5; mkdir -p $R
snap() { tar -C $OUT -czf $OUT/c5.tgz c5; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $R/check.log bench/shapes/narrow-check.txt .bundles/s10e/sm90*.json) ($SECONDS s)"
for k in 192x128 192x176; do
  for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool $runner .bundles/s10e/sm90_bf16_${k}x64_coop_c1x1_rm_s8_st0.json \
      --m 400 --n 300 --k 200 --check 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|check" | sed "s/^/$k $tool: /"
  done
done > $R/sanitizers.txt
echo "sanitizers done ($SECONDS s)"; snap
for b in .bundles/s10e/sm90*.json; do
  n=$(basename $b .json)
  timeout 200 $runner $b --shapes bench/results/2026-11-28-h200-cluster-pingpong/scripts/cublas-shapes.txt --bench --vs cublas \
    --warmup 10 --iters 30 > $R/probe-$n.log 2>&1 || echo "probe $n exit $?"
done
echo "probe done ($SECONDS s)"; snap
export PYTHONPATH=$PWD/python
for set in train train2; do
  timeout 200 python3 -m gemm_bench.fit measure --plan .bundles/s10e/plan-$set.json --runner "$runner" --bundles .bundles/s10e --work $R/fit-$set --warmup 3 --iters 10 > $R/fit-$set.log 2>&1
  echo "measure $set exit $?"
  python3 -m gemm_bench.fit collect $R/fit-$set --out $R/measurements-$set.json | tail -1
  rm -rf $R/fit-$set
  snap
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"; snap
