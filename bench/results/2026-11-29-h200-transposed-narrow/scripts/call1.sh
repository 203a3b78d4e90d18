# Issue 16, call 1: transposed narrow tiles (scripts/probe.mlir, carried in
# .bundles/tnarrow) on the training set's 51 problems with M <= 64 and an
# M = 16 / 64, N = 4096 sweep over K, beside cuBLASLt, and the library's
# pick (main's model and library, .device/kernels-lowpnew.tar.xz) on the
# same problems; their checks on bench/shapes/narrow-check.txt first.
# A transposed bundle runs the problem N x M x K (A and B exchanged).
set -u
R=/tmp/tn1; mkdir -p $R
mkdir -p .device/lib && tar -C .device/lib -xJf .device/kernels-lowpnew.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
for b in .bundles/tnarrow/*.json; do
  timeout 120 $runner $b --shapes bench/shapes/narrow-check.txt --check > $R/check-$(basename $b .json).log 2>&1
  echo "check $(basename $b .json): exit $?"
done | tee $R/checks.txt
awk '!/^#/ && NF >= 3 && $1 <= 64 {print $1, $2, $3}' bench/shapes/train.txt > $R/train64.shapes
for m in 16 64; do for k in 512 1024 2048 4096 8192 16384; do echo "$m 4096 $k"; done; done > $R/stream.shapes
for set in train64 stream; do
  awk '{print $2, $1, $3}' $R/$set.shapes > $R/$set.t.shapes
  for b in .bundles/tnarrow/*.json; do
    name=$(basename $b .json)
    timeout 150 $runner $b --shapes $R/$set.t.shapes --bench --vs cublas --warmup 10 --iters 30 \
      --timeout-ms 20000 --json $R/$set-$name.json > $R/$set-$name.log 2>&1
    echo "$set $name: exit $?"
  done
  while read -r m n k; do
    timeout 60 $runner --library .device/lib/kernels --dtype bf16 --m $m --n $n --k $k --bench --vs cublas \
      --warmup 10 --iters 30 --timeout-ms 20000 --json $R/$set-pick-${m}x${n}x${k}.json > $R/$set-pick-${m}x${n}x${k}.log 2>&1 ||
      echo "pick $m $n $k failed"
  done < $R/$set.shapes
done
python3 bench/results/2026-11-29-h200-transposed-narrow/scripts/table.py $R > $R/summary.md
cat $R/summary.md
rm -f $R/build.log
tar -C /tmp -cJf $OUT/tn1.tar.xz tn1
echo "done ($SECONDS s)"
