# Device call 2 (session 3): the 64-row tiles' A in 16-row boxes (boxes past
# M skipped): correctness at the box boundaries, sanitizers, and before/after.
set -u
R=$OUT/d2; mkdir -p $R/checks $R/ab
S=$R/summary.txt
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $S
( cat bench/shapes/sm90-check.txt; for m in 1 15 16 17 31 33 48 63 65 80 113; do echo "$m 520 200"; done; echo "17 8192 8192"; echo "40 28672 512" ) > /tmp/check.txt
for b in .bundles/sm90new/*.json; do
  n=$(basename $b .json)
  $runner $b --shapes /tmp/check.txt --check --json $R/checks/check-$n.json > $R/checks/check-$n.log 2>&1
  echo "$n: exit $? $(grep -c ' PASS ' $R/checks/check-$n.log) PASS $(grep -c ' FAIL ' $R/checks/check-$n.log) FAIL" >> $S
done
for b in sm90_bf16_64x256_pingpong sm90_bf16_64x128_pingpong_k2 sm90_bf16_64x128_pingpong_sk; do
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 $runner .bundles/sm90new/$b.json --m 17 --n 521 --k 203 --check > $R/checks/san-$b-$tool.log 2>&1
    echo "$b $tool 17x521x203: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/checks/san-$b-$tool.log | head -1)" >> $S
  done
done
echo "== A/B" >> $S
( for m in 16 32 64 128; do echo "$m 8192 8192"; echo "$m 8192 28672"; echo "$m 28672 8192"; done; echo "256 8192 8192"; echo "1024 1024 1024"; echo "256 28672 8192" ) > /tmp/ab.txt
for round in 1 2; do
  for n in sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0 sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_sk sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_k2 sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0 sm90_bf16_64x256x64_pingpong_c1x1_rm_s8_st0; do
    for v in abold abnew; do
      $runner .bundles/$v/$n.json --shapes /tmp/ab.txt --check --bench --vs cublas --warmup 10 --iters 30 --json $R/ab/$v-$n-$round.json > $R/ab/$v-$n-$round.log 2>&1
      echo "$v $n round $round: exit $?" >> $S
    done
  done
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> $S
tar -C $OUT -czf $OUT/d2.tgz d2 && rm -rf $R
