# Device call 2: the stream-K kernels after loading partials two sub-tiles at
# a time: correctness and compute-sanitizer, then DP vs stream-K twins again.
set -u
R=$OUT/call2; mkdir -p $R/ab $R/checks
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/summary.txt
for b in .bundles/sm90/*.json; do
  n=$(basename $b .json)
  $runner $b --shapes bench/shapes/sm90-check.txt --check --json $R/checks/check-$n.json > $R/checks/check-$n.log 2>&1
  echo "$n: exit $? $(grep -c ' PASS ' $R/checks/check-$n.log) PASS $(grep -c ' FAIL ' $R/checks/check-$n.log) FAIL" >> $R/summary.txt
done
for b in sm90_bf16_128x256_coop_sk sm90_bf16_128x256_coop_c2x1_sk; do
  for shape in "300 520 200" "300 521 203"; do
    set -- $shape
    for tool in memcheck racecheck synccheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 $runner .bundles/sm90/$b.json --m $1 --n $2 --k $3 --check > $R/checks/san-$b-$tool-$1x$2x$3.log 2>&1
      echo "$b $tool $1x$2x$3: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/checks/san-$b-$tool-$1x$2x$3.log | head -1)" >> $R/summary.txt
    done
  done
done
for b in .bundles/ab/*.json; do
  n=$(basename $b .json)
  $runner $b --shapes .bundles/ab/shapes.txt --check --bench --vs cublas --warmup 10 --iters 30 --json $R/ab/$n.json > $R/ab/$n.log 2>&1
  echo "$n exit $?" >> $R/summary.txt
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> $R/summary.txt
tar -C $OUT -czf $OUT/call2.tgz call2 && rm -rf $R
