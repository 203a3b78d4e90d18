# Issue 16, 2026-11-25, device call 1: the candidate matrix (34 kernels of
# gemm_bench.fit, compiled here at this commit's compiler) on the training
# set and on the second training set (bench/shapes/train2.txt, seed 3, no
# shape of the test set), for refitting the model on both.
set -u
R=/tmp/c1; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
export PYTHONPATH=$PWD/python
for set in train train2; do
  plan=.bundles/fit/plan.json
  [ $set = train2 ] && plan=.bundles/fit/plan-train2.json
  PYTHONUNBUFFERED=1 timeout 260 python3 -m gemm_bench.fit measure --plan $plan \
    --runner $runner --bundles .bundles/fit --work $R/fit-$set --warmup 5 --iters 15 > $R/fit-$set.log 2>&1
  echo "$set measure exit $?" | tee -a $R/summary.txt
  tail -1 $R/fit-$set.log | tee -a $R/summary.txt
  python3 -m gemm_bench.fit collect $R/fit-$set --out $R/measurements-$set.json | tee -a $R/summary.txt
  rm -rf $R/fit-$set
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -cJf $OUT/c1.tar.xz c1
