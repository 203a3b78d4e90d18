# The block-wise fp8 kernels of this directory's compiler on the H200:
# bench/blockfp8-h200.sh (192 checks, the library's tiny low-precision
# problems through the dispatcher, block-wise against per-tensor and
# cuBLASLt in GPU time), then compute-sanitizer memcheck, synccheck and
# racecheck (shared-memory hazards: the scale ring is written by cp.async
# and read by ld.shared) of the five block-wise mainloop forms on edge
# shapes (130x70x1300: 11 k-blocks, so every slot of the rings is
# refilled). Carry .bundles/blockfp8 (gemm-opt bench/kernels/sm90-blockfp8.mlir
# --gemm-to-ptx), the library as .device/kernels-full.tar.xz
# (tar -C build -cJf ... kernels) and .device/*.deb.
#
#   bash bench/results/2026-11-28-h200-blockfp8-staged/scripts/check.sh /tmp/bf8s4
set -u
R=${1:?results directory under /tmp}; mkdir -p $R .bundles
tar -C .bundles -xJf .device/kernels-full.tar.xz
BUNDLES=$PWD/.bundles/blockfp8 LIBRARY=$PWD/.bundles/kernels BUDGET_S=330 \
  bash bench/blockfp8-h200.sh $R/blockfp8 > $R/blockfp8.log 2>&1
echo "blockfp8-h200.sh: exit $?"
grep -E "PASS,|Geometric" $R/blockfp8.log | head -20
runner=/tmp/build-gpu/bin/gemm-runner
for k in bf_block_128x128 bf_block_64x128_pp bf_block_128x192 bf_block_sk bf_block_64x128_k3; do
  for s in "130 70 200" "1 8 8" "150 130 520" "130 70 1300" "257 300 1000"; do
    set -- $s
    for tool in memcheck synccheck racecheck; do
      [ $tool = racecheck ] && [ $1 = 257 ] && continue
      log=$R/$tool-$k-$1x$2x$3.log
      timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 "$runner" .bundles/blockfp8/$k.json \
        --m $1 --n $2 --k $3 --check --reference naive > $log 2>&1
      echo "$tool $k $1x$2x$3: exit $? $(grep -oE 'check (PASS|FAIL)' $log | head -1) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $log)"
    done
  done
done
tar --exclude='*.cubin' -C /tmp -cJf $OUT/$(basename $R).tar.xz $(basename $R)
