# Session 14, call 1: the stream-K plan whose shared units are split in
# aligned k-ranges (gemm::bundle::streamKPlan), against the previous plan
# (the library of session 13, .device/kernels-old.tar.xz) and the whole-tile
# twins of the same tiles, on the training shapes where the dispatcher may
# pick a stream-K candidate (`gemm_bench.fit plan --only-match '_sk$'`);
# every stream-K bundle checked over bench/shapes/stream-k-check.txt;
# memcheck and racecheck on two plans (a partial wave in quarters, fewer
# units than CTAs in halves).
set -u
R=$OUT/c1; mkdir -p $R
snap() { tar -C $OUT -czf $OUT/c1.tgz c1; }
for v in full old; do mkdir -p .device/$v && tar -C .device/$v -xJf .device/kernels-$v.tar.xz; done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
source bench/lib/check-bundles.sh
new=.device/full/kernels old=.device/old/kernels
echo "check, plain: $(check_bundles $R/check-plain.log bench/shapes/stream-k-check.txt $(ls $new/*_sk.json | grep -v batched))"
echo "checks ($SECONDS s)"; snap
for spec in "sm90_bf16_128x192x64_coop_c1x1_rm_s8_st0_sk 1206 3072 256" \
            "sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_sk 16 8192 520"; do
  set -- $spec
  for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $runner $new/$1.json --m $2 --n $3 --k $4 --check > $R/san-$tool-$1.log 2>&1
    echo "$tool $1 $2x$3x$4: exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool-$1.log | head -1))"
  done
done
echo "sanitizers ($SECONDS s)"; snap
export PYTHONPATH=$PWD/python
source bench/results/2026-11-28-h200-stream-k/scripts/measure.sh
for round in 1 2; do
  measure_variant $R dp $round $new dp
  measure_variant $R old $round $old sk
  measure_variant $R new $round $new sk
  snap
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"; snap
