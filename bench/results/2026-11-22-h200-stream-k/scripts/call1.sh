# Device call 1: correctness of every SM90 kernel (stream-K ones included),
# compute-sanitizer on the stream-K kernels, then DP vs stream-K twins over
# the shapes that motivate stream-K, each beside cuBLAS in one process.
set -u
R=$OUT/call1; mkdir -p $R/ab
SANITIZE_BUNDLE=sm90_bf16_128x256_coop_sk ITERS=30 BENCH_SIZES="4096 6144" \
  BENCH_BUNDLES="sm90_bf16_128x256_coop sm90_bf16_128x256_coop_sk" \
  bash bench/run-h200.sh .bundles/sm90 $R/checks > $R/checks.txt 2>&1
echo "run-h200 exit $?" >> $R/checks.txt
runner=/tmp/build-gpu/bin/gemm-runner
for b in sm90_bf16_64x128_pingpong_sk sm90_bf16_128x256_coop_c2x1_sk sm90_bf16_f32out_128x128_pingpong_sk; do
  for shape in "300 520 200" "300 521 203"; do
    set -- $shape
    for tool in memcheck racecheck synccheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 $runner .bundles/sm90/$b.json --m $1 --n $2 --k $3 --check > $R/checks/san-$b-$tool-$1x$2x$3.log 2>&1
      echo "$b $tool $1x$2x$3: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/checks/san-$b-$tool-$1x$2x$3.log | head -1)" >> $R/checks.txt
    done
  done
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> $R/checks.txt
for b in .bundles/ab/*.json; do
  n=$(basename $b .json)
  $runner $b --shapes .bundles/ab/shapes.txt --check --bench --vs cublas --warmup 10 --iters 30 --json $R/ab/$n.json > $R/ab/$n.log 2>&1
  echo "$n exit $?" >> $R/checks.txt
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> $R/checks.txt
tar -C $OUT -czf $OUT/call1.tgz call1 && rm -rf $R
