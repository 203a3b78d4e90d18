# The arrival trial (README), on the GPU machine with .bundles/arrival
# carried (scripts/build.sh) and the nlohmann-json .deb in .device: every
# old and new kernel checked on scripts/check.txt, then each kernel timed on
# its own made-up problems (scripts/shapes-KERNEL.txt, none from the test
# set) beside cuBLASLt in one process, old and new alternating, ROUNDS
# (default 5) rounds in alternating order, 20 warm-ups and 200 timed runs
# (GPU timing).
set -u
D=bench/results/2026-12-07-h100-split-k-arrival/scripts
R=$OUT/arrival; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner /tmp/arrival-build.log > /dev/null || exit 2
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $R/check.log $D/check.txt .bundles/arrival/*/*.json) ($SECONDS s)"
for round in $(seq ${ROUNDS:-5}); do
  variants="old new"; [ $((round % 2)) -eq 0 ] && variants="new old"
  for shapes in $D/shapes-*.txt; do
    kernel=$(basename $shapes .txt); kernel=${kernel#shapes-}
    for v in $variants; do
      timeout 100 $runner .bundles/arrival/$v/$kernel.json --shapes $shapes --bench --vs cublas \
        --warmup 20 --iters 200 --json $R/$kernel-$v-r$round.json > /dev/null 2>&1 ||
        echo "$kernel $v round $round failed"
    done
  done
done
echo "timed ($SECONDS s)"
python3 $D/summary.py $R > $R/summary.md; cat $R/summary.md
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
