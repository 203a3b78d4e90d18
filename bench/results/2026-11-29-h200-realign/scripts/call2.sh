# Issue 16, call 2: the runtime of this commit (rows on whole 32-byte L2
# sectors are no longer realigned; A and B read in place with rows that are
# not 128-byte multiples promote L2 misses to 128 bytes) on call 1's shapes,
# two rounds, then the test set through the suite (the shipped model, whose
# picks this change leaves as they were: .bundles/realign/selection-test.json
# from `python -m gemm_bench.suite select --groups test --bundles
# build/kernels --json`). Output goes to $OUT as it is written.
set -u
D=bench/results/2026-11-29-h200-realign/scripts
R=$OUT/c2; mkdir -p $R
L=/tmp/c2logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
echo "runner built ($SECONDS s)"
for round in 1 2; do
  while read m n k; do
    log=$L/new-${m}x${n}x${k}-r$round.log
    timeout 40 $runner --library .device/full/kernels --dtype bf16 --m $m --n $n --k $k \
      --check --bench --vs cublas --warmup 10 --iters 30 > $log 2>&1
    echo "r$round new ${m}x${n}x${k} rc=$? $(grep -o '^library: [^ ]*' $log | cut -d' ' -f2) | $(grep -E '(^\[1/1\]|^running)' $log | tail -1)" >> $R/summary.txt
  done < <(grep -v '^#' $D/unaligned-shapes.txt)
  echo "round $round done ($SECONDS s)"
done
tar -C /tmp -czf $R/logs.tgz c2logs
MODEL=bench/tuning/sm90-h200-model.json SHAPE_GROUPS=test SELECTION=.bundles/realign/selection-test.json L2=warm \
  timeout 330 bash bench/suite.sh .device/full/kernels /tmp/test-new > $R/test-new.log 2>&1
echo "test exit $? ($SECONDS s)"
rm -rf /tmp/test-new/runs
tar -C /tmp -czf $R/test-new.tgz test-new
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"
