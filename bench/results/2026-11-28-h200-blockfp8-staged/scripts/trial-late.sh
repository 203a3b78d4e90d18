# Third call: where the consumers read the staged A scales. "pre" (the
# bundles in .bundles/blockfp8, this compiler before the change that made
# it "late"): between the stage's wait and its MMAs, carried to the
# promotion a k-block later. "late" (.bundles/trial, *_late): at the
# promotion, after wgmma.wait_group 1, just before the stage's release.
# Both now meet at bar.warp.sync before each warp's lane 0 releases the
# stage. racecheck of the pre 128x192 kernel where the first two calls
# reported hazards, the late kernels' checks over
# bench/shapes/blockfp8-check.txt, then pre, late and the per-tensor
# promoted kernels of the same tiles on eight shapes, 3 rounds in
# alternating order, each beside cuBLASLt in its own process.
set -u
R=/tmp/bf8s3; mkdir -p $R .bundles
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv | tee $R/gpu.txt
for s in "150 130 520" "130 70 200"; do
  set -- $s
  log=$R/racecheck-bf_block_128x192-$1x$2x$3.log
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $runner .bundles/blockfp8/bf_block_128x192.json \
    --m $1 --n $2 --k $3 --check --reference naive > $log 2>&1
  echo "racecheck bf_block_128x192 $1x$2x$3: exit $? $(grep -E 'RACECHECK SUMMARY' $log)"
done
for k in bf_block_128x128_late bf_block_64x128_pp_late; do
  timeout 120 $runner .bundles/trial/$k.json --shapes bench/shapes/blockfp8-check.txt --check \
    --timeout-ms 20000 > $R/check-$k.log 2>&1
  echo "$k: exit $?; $(grep -c 'check PASS' $R/check-$k.log) PASS, $(grep -c 'check FAIL' $R/check-$k.log) FAIL"
  log=$R/racecheck-$k.log
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $runner .bundles/trial/$k.json \
    --m 150 --n 130 --k 520 --check --reference naive > $log 2>&1
  echo "racecheck $k 150x130x520: exit $? $(grep -E 'RACECHECK SUMMARY' $log)"
done
printf '%s\n' "4096 4096 4096" "8192 8192 8192" "2048 28672 8192" "1024 8192 8192" \
  "512 8192 28672" "2048 8192 28672" "128 8192 8192" "64 28672 8192" > $R/shapes.txt
kernels=(blockfp8/bf_block_128x128 trial/bf_block_128x128_late blockfp8/bf_t_128x128
         blockfp8/bf_block_64x128_pp trial/bf_block_64x128_pp_late blockfp8/bf_t_64x128_pp)
for round in 1 2 3; do
  order=("${kernels[@]}")
  if [ $((round % 2)) -eq 0 ]; then
    order=(); for ((i = ${#kernels[@]} - 1; i >= 0; i--)); do order+=("${kernels[i]}"); done
  fi
  for k in "${order[@]}"; do
    name=$(basename $k)
    timeout 150 $runner .bundles/$k.json --shapes $R/shapes.txt --bench --vs cublas --warmup 10 \
      --iters 30 --timeout-ms 20000 --json $R/$name-r$round.json > $R/$name-r$round.log 2>&1
    echo "$name round $round: exit $?"
  done
done
tar --exclude='*.cubin' -C /tmp -cJf $OUT/bf8s3.tar.xz bf8s3
