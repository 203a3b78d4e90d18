# Call 3: the committed rule (one box unless the tile's last box lies past
# M; 64-row boxes for taller tiles, 16-row ones for 64-row tiles), compiled
# here into .bundles/edge/final from scripts/kernels.mlir and
# scripts/check-kernels.mlir: gemm-runner --check of all thirteen over
# bench/shapes/sm90-check.txt and scripts/edge-check.txt (M on both sides
# of every box and tile edge, split-K, stream-K, a transposed problem, an
# M-major A), then call 1's A/B of the first six against main.
set -u
R=$OUT/call3; mkdir -p $R
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $R/check.log bench/shapes/sm90-check.txt .bundles/edge/final/*.json) (sm90-check.txt)"
mv $R/check.log $R/check-sm90.log
echo "checks: $(check_bundles $R/check.log bench/results/2026-11-29-h200-edge-rows/scripts/edge-check.txt .bundles/edge/final/*.json) (edge-check.txt)"
gzip $R/check.log $R/check-sm90.log
C=call3 NEW=final bash bench/results/2026-11-29-h200-edge-rows/scripts/call1.sh
