# Calls 1 and 5: every kernel of the plans .bundles/remeasure/plan-NAME.json
# (NAME in PLANS, written here by `gemm_bench.fit plan ... --json`) timed on
# its training shapes with main's runtime and the library of
# .device/kernels-LIB.tar.xz (`gemm_bench.fit measure`, 3 warm-ups, 10 runs,
# GPU timing), into $OUT/C/measurements-NAME.json (`fit collect`):
#   call 1: C=call1 LIB=edge PLANS="train train2"
#           every candidate on both training sets (plan --shapes
#           bench/shapes/train.txt, train2.txt); kernels-edge is a tarball
#           of build/kernels at 06e1fe1
#   call 5: C=call5 LIB=refit PLANS="lowp-train-1 lowp-train-2"
#           the library's 88 low-precision kernels (plan --lowp build/kernels,
#           split into halves of alternate kernels); kernels-refit is
#           build/kernels with the refitted model (each part ran with a 190 s
#           limit)
set -u
R=$OUT/$C; mkdir -p $R
snap() { tar -C $OUT -czf $OUT/$C.tgz $C; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/$LIB && tar -C .device/$LIB -xJf .device/kernels-$LIB.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
echo "runner built ($SECONDS s)"
export PYTHONPATH=$PWD/python
for t in $PLANS; do
  timeout 250 python3 -m gemm_bench.fit measure --plan .bundles/remeasure/plan-$t.json --runner "$runner" \
    --bundles .device/$LIB/kernels --work /tmp/fit-$t --warmup 3 --iters 10 > $R/fit-$t.log 2>&1
  echo "measure $t exit $? ($SECONDS s)"
  python3 -m gemm_bench.fit collect /tmp/fit-$t --out $R/measurements-$t.json | tail -1
  rm -rf /tmp/fit-$t
  snap
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"; snap
