# Third call: as the second (scripts/call2.sh), with the B scales read from
# the stage before the k-block's MMAs are issued (.bundles/blockfp8, this
# commit) beside reading them at the promotion with the A scales
# (.bundles/bf8-late, the second call's "this commit"; *_late.json are copies
# of its manifests, so that the result files differ by name).
mkdir -p /tmp/bf8b3
bash bench/results/2026-11-28-h200-blockfp8-staged/scripts/trial.sh /tmp/bf8b3 \
  bf8-old/bf_block_128x128_main bf8-late/bf_block_128x128_late blockfp8/bf_block_128x128 blockfp8/bf_t_128x128 \
  bf8-old/bf_block_64x128_pp_main bf8-late/bf_block_64x128_pp_late blockfp8/bf_block_64x128_pp blockfp8/bf_t_64x128_pp \
  bf8-old/bf_block_128x192_main bf8-late/bf_block_128x192_late blockfp8/bf_block_128x192 blockfp8/bf_t_128x192 | tee /tmp/bf8b3/summary.md
tar -C /tmp -cJf $OUT/bf8b3.tar.xz bf8b3
