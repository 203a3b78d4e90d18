# Issue 16, call 4: call 3's two test-set runs again in the other order,
# after the new library's f16 transposed narrow kernels are checked on
# bench/shapes/narrow-check.txt (call 1 checked the bf16 bundles of the
# probe). Call 3 was
#   LIB=tn SELECTIONS=.bundles/tnfit C=call3 \
#     bash bench/results/2026-11-29-h200-remeasure/scripts/call2.sh shipped new
# with the new library as .device/kernels-tn.tar.xz (build/kernels) and
# the selections written here:
#   python -m gemm_bench.suite select --groups test --bundles <the previous library> \
#     --model <the previous model> --json .bundles/tnfit/selection-shipped.json
#   python -m gemm_bench.suite select --groups test --bundles build/kernels \
#     --model bench/tuning/sm90-h200-model.json --json .bundles/tnfit/selection-new.json
# (the new library holds every kernel of the previous one).
set -u
mkdir -p $OUT/call4 /tmp/tnlib && tar -C /tmp/tnlib -xJf .device/kernels-tn.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner /tmp/build.log > /dev/null || exit 2
for b in /tmp/tnlib/kernels/sm90_f16_akbkcc_{64x16,64x24,64x32,128x16}x64_*.json; do
  timeout 120 $runner $b --shapes bench/shapes/narrow-check.txt --check > /tmp/check.log 2>&1
  echo "check $(basename $b .json): exit $?, $(grep -c PASS /tmp/check.log) passed, $(grep -c FAIL /tmp/check.log) failed"
done | tee $OUT/call4/checks.txt
LIB=tn SELECTIONS=.bundles/tnfit C=call4 \
  bash bench/results/2026-11-29-h200-remeasure/scripts/call2.sh new shipped
# (its two runs renamed here test-3-new and test-4-shipped)
