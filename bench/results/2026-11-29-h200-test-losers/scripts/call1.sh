# Issue 16, call 1: the test set's entries below 0.90x (the realign study's
# call 2 report), each with the dispatcher's pick and the next seven
# candidates of its ranking (candidates.txt, from scripts/candidates.py on
# the compiler machine), one gemm-runner per candidate over the problems it
# is a candidate for, checked and timed beside cuBLASLt. Analysis only: the
# shipped model and library are not changed by it. CANDIDATES, LIB (the
# library .device/kernels-LIB.tar.xz) and C (the results' folder) default
# to this study's; ../2026-11-29-h200-transposed-narrow/ sets its own.
set -u
D=bench/results/2026-11-29-h200-test-losers
CANDIDATES=${CANDIDATES:-$D/candidates.txt} LIB=${LIB:-full} C=${C:-c1}
R=$OUT/$C; mkdir -p $R
L=/tmp/c1logs; S=/tmp/c1shapes; mkdir -p $L $S
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/$LIB && tar -C .device/$LIB -xJf .device/kernels-$LIB.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
echo "runner built ($SECONDS s)"
while read dtype m n k rank config t; do
  if [ "$t" = T ]; then echo "$n $m $k"; else echo "$m $n $k"; fi >> $S/$config.txt
done < $CANDIDATES
for f in $S/*.txt; do
  config=$(basename $f .txt)
  [ $SECONDS -gt 520 ] && { echo "time: stopped before $config" >> $R/progress.txt; break; }
  timeout 90 $runner .device/$LIB/kernels/$config.json --shapes $f --check --bench --vs cublas \
    --warmup 10 --iters 30 --json $L/$config.json > $L/$config.log 2>&1
  echo "$config rc=$?" >> $R/progress.txt
done
echo "candidates done ($SECONDS s)"
python3 $D/scripts/summarize.py $CANDIDATES $L > $R/summary.md
tar -C /tmp -czf $R/logs.tgz c1logs
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
