# Session 14, call 2: call 1 found the plan's dp_units not a multiple of the
# CTAs where a partial wave is not shared (more than half a wave, or one
# k-block), and the materializer still handed out dp_units / CTAs whole
# units a CTA: the last partial wave was never computed (220 failed checks,
# 0 in the shared plans). Fixed (each CTA's whole units are those below
# dp_units in the static schedule); the stream-K bundles checked again, a
# sanitizer run on an unshared partial wave, and the new stream-K bundles
# timed again beside their whole-tile twins (2 rounds, alternating order).
set -u
R=$OUT/c2; mkdir -p $R
snap() { tar -C $OUT -czf $OUT/c2.tgz c2; }
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
source bench/lib/check-bundles.sh
new=.device/full/kernels
echo "check: $(check_bundles $R/check-plain.log bench/shapes/stream-k-check.txt $(ls $new/*_sk.json))"
echo "checks ($SECONDS s)"; snap
for tool in memcheck racecheck; do
  k=sm90_bf16_128x128x64_pingpong_c1x1_rm_s8_st0_sk
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $runner $new/$k.json --m 2000 --n 2600 --k 256 --check > $R/san-$tool-$k.log 2>&1
  echo "$tool $k 2000x2600x256: exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool-$k.log | head -1))"
done
export PYTHONPATH=$PWD/python
source bench/results/2026-11-28-h200-stream-k/scripts/measure.sh
for round in 1 2; do
  order="dp new"; [ $round = 2 ] && order="new dp"
  for v in $order; do
    plan=sk; [ $v = dp ] && plan=dp
    measure_variant $R $v $round $new $plan
  done
  snap
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"; snap
