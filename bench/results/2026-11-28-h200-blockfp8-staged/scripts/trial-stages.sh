# Timing-only trials (second call, after scripts/check.sh /tmp/bf8s2 with
# the compiler where each consumer warp releases the stages it read), on
# six shapes, 3 rounds in alternating order, each kernel beside cuBLASLt in
# its own process: bf_block_128x128_nob (bf_block_128x128 with its B block
# scales replaced by 1.0 in the materialized IR: no global load left in the
# consumers' mainloop; its results are wrong, so it is not checked) and the
# per-tensor promoted 128x128 kernel with 5 stages against 6 (what the stage
# the scale ring takes costs). Carry .bundles/blockfp8 and .bundles/trial
# (trial.mlir, and the edited IR of bf_block_128x128, through --gemm-to-ptx).
set -u
R=/tmp/bf8s2; mkdir -p $R/trial
runner=/tmp/build-gpu/bin/gemm-runner
printf '%s\n' "4096 4096 4096" "8192 8192 8192" "2048 28672 8192" "1024 8192 8192" \
  "512 8192 28672" "2048 8192 28672" > $R/trial/shapes.txt
trial=(bf_block_128x128 bf_block_128x128_nob bf_t_128x128_st5 bf_t_128x128_st6)
for round in 1 2 3; do
  order=("${trial[@]}")
  [ $((round % 2)) -eq 0 ] && order=(bf_t_128x128_st6 bf_t_128x128_st5 bf_block_128x128_nob bf_block_128x128)
  for k in "${order[@]}"; do
    dir=.bundles/trial; [ $k = bf_block_128x128 ] && dir=.bundles/blockfp8
    timeout 150 "$runner" $dir/$k.json --shapes $R/trial/shapes.txt --bench --vs cublas --warmup 10 \
      --iters 30 --timeout-ms 20000 --json $R/trial/$k-r$round.json > $R/trial/$k-r$round.log 2>&1
    echo "trial $k round $round: exit $?"
  done
done
tar --exclude='*.cubin' -C /tmp -cJf $OUT/bf8s2.tar.xz bf8s2
