# The stagger trial (README), on an H200 with .bundles/stg carried (written
# by scripts/build.sh) and the nlohmann-json .deb in .device: every variant
# checked on bench/shapes/blockfp8-check.txt, then timed beside cuBLASLt on
# the eight shapes of ../2026-11-28-h200-blockfp8-staged/scripts/trial.sh
# (3 rounds in alternating order, GPU timing).
set -u
R=$OUT/stagger; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner /tmp/stg-build.log > /dev/null || exit 2
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $R/check.log bench/shapes/blockfp8-check.txt .bundles/stg/*.json) ($SECONDS s)"
bash bench/results/2026-11-28-h200-blockfp8-staged/scripts/trial.sh $R/trial \
  stg/st_t_128x192_base stg/st_t_128x192_stagger stg/st_t_128x192_order \
  stg/st_block_128x192_base stg/st_block_128x192_stagger stg/st_block_128x192_order \
  stg/st_t_128x128_base stg/st_t_128x128_stagger > $R/trial.md 2>&1
echo "trial exit $? ($SECONDS s)"; tail -3 $R/trial.md
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
