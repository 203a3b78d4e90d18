# The shipped library (session 31: the split direct candidates in the model
# and the library) on the GPU: for each of the 30 test runs whose pick the
# ship changed (scripts/test-changed.txt), gemm-runner --library --check,
# and that the library picks the kernel the A/B timed. Any Hopper GPU.
# Carried: .device/kernels-new.tar.xz (build/kernels of 49bc222:
# `tar -C build -cJf .device/kernels-new.tar.xz kernels`) and the
# nlohmann-json .deb. Writes $OUT/ship/.
set -u
D=bench/results/2026-12-07-h200-direct-split-k
R=$OUT/ship; mkdir -p $R /tmp/shiplib
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
tar -C /tmp/shiplib -xJf .device/kernels-new.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner /tmp/ship-build.log > /dev/null || { tail -20 /tmp/ship-build.log; exit 2; }
while read -r m n k dtype pick; do
  timeout 60 $runner --library /tmp/shiplib/kernels --dtype $dtype --m $m --n $n --k $k --check \
    > $R/$m-$n-$k-$dtype.log 2>&1
  status=$?
  picked=$(sed -n 's/^library: \([^ ]*\) .*/\1/p' $R/$m-$n-$k-$dtype.log)
  echo "$m $n $k $dtype exit $status $([ "$picked" = "$pick" ] && echo "picks $pick" || echo "PICKS $picked, NOT $pick")"
done < $D/scripts/test-changed.txt > $R/summary.txt
echo "ship checks: $(grep -c 'exit 0 picks' $R/summary.txt) of $(wc -l < $D/scripts/test-changed.txt) pass with the expected pick ($SECONDS s)"
tar -C $OUT -cJf $OUT/ship.tar.xz ship && rm -rf $R
