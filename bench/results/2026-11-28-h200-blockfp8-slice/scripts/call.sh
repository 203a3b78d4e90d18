# The block-wise fp8 kernels with the A scales read by slice (this
# commit's compiler) on the H200: bench/blockfp8-h200.sh (192 checks, the
# library's tiny low-precision problems through the dispatcher, block-wise
# against per-tensor and cuBLASLt in GPU time), then compute-sanitizer
# memcheck of the block-wise kernels on edge shapes. Carry .bundles/blockfp8
# (gemm-opt bench/kernels/sm90-blockfp8.mlir --gemm-to-ptx), the library as
# .device/kernels-full.tar.xz (tar -C build -cJf ... kernels) and .device/*.deb.
set -u
R=/tmp/bf8r; mkdir -p $R .bundles
tar -C .bundles -xJf .device/kernels-full.tar.xz
BUNDLES=$PWD/.bundles/blockfp8 LIBRARY=$PWD/.bundles/kernels BUDGET_S=330 \
  bash bench/blockfp8-h200.sh $R/blockfp8 > $R/blockfp8.log 2>&1
echo "blockfp8-h200.sh: exit $?"
tail -25 $R/blockfp8.log
runner=/tmp/build-gpu/bin/gemm-runner
for k in bf_block_128x128 bf_block_64x128_pp bf_block_128x192 bf_block_sk bf_block_64x128_k3; do
  for s in "130 70 200" "1 8 8" "150 130 520" "257 300 1000"; do
    set -- $s
    timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 "$runner" .bundles/blockfp8/$k.json \
      --m $1 --n $2 --k $3 --check --reference naive > $R/memcheck-$k-$1x$2x$3.log 2>&1
    echo "memcheck $k $1x$2x$3: exit $? $(grep -oE 'check (PASS|FAIL)' $R/memcheck-$k-$1x$2x$3.log | head -1) $(grep -E 'ERROR SUMMARY' $R/memcheck-$k-$1x$2x$3.log)"
  done
done
tar --exclude='*.cubin' -C /tmp -cJf $OUT/bf8r.tar.xz bf8r
