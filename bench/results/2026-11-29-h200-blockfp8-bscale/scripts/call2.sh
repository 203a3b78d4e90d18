# Second call: the block-wise kernels of main (B scale loaded by the
# consumers, .bundles/bf8-old) and of this commit (B scale staged with the A
# scales, .bundles/blockfp8), beside the per-tensor promoted kernels of the
# same tiles, each beside cuBLASLt in its own process, three rounds in
# alternating order (the staged session's trial.sh). The *_main.json
# manifests are copies of main's, so that the result files differ by name.
mkdir -p /tmp/bf8b2
bash bench/results/2026-11-28-h200-blockfp8-staged/scripts/trial.sh /tmp/bf8b2 \
  bf8-old/bf_block_128x128_main blockfp8/bf_block_128x128 blockfp8/bf_t_128x128 \
  bf8-old/bf_block_64x128_pp_main blockfp8/bf_block_64x128_pp blockfp8/bf_t_64x128_pp \
  bf8-old/bf_block_128x192_main blockfp8/bf_block_128x192 blockfp8/bf_t_128x192 | tee /tmp/bf8b2/summary.md
tar -C /tmp -cJf $OUT/bf8b2.tar.xz bf8b2
