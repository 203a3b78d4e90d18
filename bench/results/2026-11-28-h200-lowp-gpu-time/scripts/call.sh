# bench/lowp-h200.sh with this session's compiler, in gemm-runner's default
# GPU timing (the 2026-11-24 figures were timed per call): every kernel of
# bench/kernels/sm90-lowp.mlir checked, long-K accumulation, fp8/int8/tf32
# beside cuBLASLt, compute-sanitizer. Carry .bundles/lowp (gemm-opt
# bench/kernels/sm90-lowp.mlir --gemm-to-ptx), .device/kernels-full.tar.xz
# and .device/*.deb.
set -u
mkdir -p .bundles && tar -C .bundles -xJf .device/kernels-full.tar.xz
BUNDLES=$PWD/.bundles/lowp LIBRARY=$PWD/.bundles/kernels BUDGET_S=430 \
  bash bench/lowp-h200.sh /tmp/lowp > /tmp/lowp.log 2>&1
echo "lowp-h200.sh: exit $?"
grep -E "PASS|FAIL|done after|ERROR SUMMARY|skipped" /tmp/lowp.log | tail -15
mv /tmp/lowp.log /tmp/lowp/
tar --exclude='*.cubin' -C /tmp -cJf $OUT/lowp.tar.xz lowp
