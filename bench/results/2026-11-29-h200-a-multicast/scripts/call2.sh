# Issue 16, call 2: the dispatcher's own picks (gemm-runner --library, the
# shipped model and library) on call 1's shapes, beside cuBLASLt, two rounds.
set -u
D=bench/results/2026-11-29-h200-a-multicast/scripts
R=$OUT/c2; mkdir -p $R
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
for round in 1 2; do
  grep -v '^#' $D/shapes.txt | while read m n k; do
    timeout 40 $runner --library .device/full/kernels --dtype bf16 --m $m --n $n --k $k \
      --check --bench --vs cublas --warmup 10 --iters 30 > /tmp/lib.log 2>&1
    echo "r$round ${m}x${n}x${k} rc=$? $(grep -o '^library: [^ ]*' /tmp/lib.log | cut -d' ' -f2) $(grep -E '^\[1/1\]|^running' /tmp/lib.log | tail -1 | grep -oE 'check [A-Z]+|ours [0-9.]+ ms|cuBLAS [0-9.]+ ms|[0-9.]+x$' | tr '\n' ' ')" >> $R/summary.txt
  done
done
cat $R/summary.txt
