# Issue 16: WGMMA groups kept in flight in the plain mainloop
# (gemm-to-ptx wgmma-lookahead = 1, the default, against 2 and 3), on
# training shapes (scripts/lookahead-shapes.txt; none from the test set):
# each kernel of scripts/lookahead.mlir compiled three times into
# .bundles/la/L1, L2, L3:
#   for L in 1 2 3; do build/bin/gemm-opt bench/results/2026-12-08-h100-small-m-l2/scripts/lookahead.mlir \
#     --gemm-to-ptx="output-dir=.bundles/la/L$L wgmma-lookahead=$L" -o /dev/null; done
# First gemm-runner --check of every bundle on its shapes, then 3 rounds in
# alternating order of L, each bundle beside cuBLASLt (--bench --vs cublas,
# GPU timing, 10 warm-ups, 30 runs). Carried: .bundles/la and the
# nlohmann-json .deb. Writes $OUT/la/ and prints the summary.
set -u
R=$OUT/la; mkdir -p $R
S=bench/results/2026-12-08-h100-small-m-l2/scripts
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
declare -A group=([sm90_bf16_akbkcc_64x16x64_pingpong_c1x1_rm_s8_st0]=t [sm90_bf16_akbkcc_64x32x64_pingpong_c1x1_rm_s8_st0]=t
  [sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0]=w [sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_k2]=w
  [sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0]=n [sm90_bf16_128x128x64_coop_c1x1_rm_s8_st0]=b)
for g in t w n b; do awk -v g=$g '$1 == g {print $2, $3, $4}' $S/lookahead-shapes.txt > $R/shapes-$g.txt; done
fails=0
for L in 1 2 3; do
  for k in "${!group[@]}"; do
    timeout 120 $runner .bundles/la/L$L/$k.json --shapes $R/shapes-${group[$k]}.txt --check > $R/check-L$L-$k.log 2>&1 ||
      { fails=$((fails + 1)); echo "check failed: L$L $k"; }
  done
done
echo "checks: $fails failed ($SECONDS s)"
for round in 1 2 3; do
  order="1 2 3"; [ $((round % 2)) -eq 0 ] && order="3 2 1"
  for L in $order; do
    for k in "${!group[@]}"; do
      timeout 150 $runner .bundles/la/L$L/$k.json --shapes $R/shapes-${group[$k]}.txt --bench --vs cublas \
        --warmup 10 --iters 30 --json $R/L$L-$k-r$round.json > /dev/null 2>&1 || echo "L$L $k round $round failed"
    done
  done
done
echo "timed ($SECONDS s)"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
python3 $S/lookahead-summary.py $R "${!group[@]}" | tee $R/summary.md
