# Issue 18: promoted fp8 128x192 tiles with each k-block's MMAs issued in
# two column halves, the first half promoted while the second half's MMAs
# run (new_*), against the serial form (old_*: one 192-column group, then
# wait_group 0 and the whole promotion), per tensor and row-wise. Checks on
# bench/shapes/blockfp8-check.txt, then both forms beside cuBLASLt on eight
# made-up compute-bound shapes (scripts/shapes.txt; none from the squares,
# the LLM sweep or the test set), 3 rounds in alternating order.
# Carried: .bundles/halves (scripts/build.sh) and the nlohmann-json .deb.
set -u
R=$OUT/halves; mkdir -p $R
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $R/check.log bench/shapes/blockfp8-check.txt .bundles/halves/*.json) ($SECONDS s)"
SHAPES=bench/results/2026-12-07-h100-fp8-halves/scripts/shapes.txt \
  bash bench/results/2026-11-28-h200-blockfp8-staged/scripts/trial.sh $R/trial \
  halves/old_tensor_128x192 halves/new_tensor_128x192 halves/old_row_128x192 \
  halves/new_row_128x192 > $R/summary.md
cat $R/summary.md
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/trial/gpu.txt
echo "done ($SECONDS s)"
