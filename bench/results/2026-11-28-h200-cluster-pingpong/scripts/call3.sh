# Session 10, call 3: one TMA-store staging slot per consumer (store-slots=1)
# buys a ring stage for 64x256, 64x160 and 64x144 pingpong (4->5, 6->7,
# 7->8) and 128x192, 128x208 cooperative (4->5); checks, then each beside
# its library twin (two slots), two rounds, on the training shapes where
# 64-row tiles lost, two test-set misses (only to explain them) and 8192
# cubed.
set -u
R=$OUT/c3; mkdir -p $R
snap() { tar -C $OUT -czf $OUT/c3.tgz c3; }
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $R/check.log bench/shapes/narrow-check.txt .bundles/s10d/sm90*.json) ($SECONDS s)"
printf '193 8192 8192\n153 10240 8192\n299 57344 8192\n186 12288 4096\n208 29568 8192\n432 10240 8192\n317 14336 4096\n2048 8192 8192\n8192 8192 8192\n' > /tmp/slots.txt
for round in 1 2; do
  for n in 64x256x64_pingpong 64x160x64_pingpong 64x144x64_pingpong 128x192x64_coop 128x208x64_coop; do
    for dir in .device/kernels .bundles/s10d; do
      timeout 100 $runner $dir/sm90_bf16_${n}_c1x1_rm_s8_st0.json --shapes /tmp/slots.txt --bench --warmup 10 --iters 30 \
        > $R/log 2>&1 || echo "$n $dir exit $?"
      grep "^\[" $R/log | sed "s|^|$round $n $(basename $dir) |" >> $R/slots.txt
    done
  done
done
rm -f $R/log
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"; snap
