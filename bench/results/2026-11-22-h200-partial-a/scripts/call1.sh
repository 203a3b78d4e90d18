# Device call 1 (session 3): correctness of the peeled first k-block, old vs
# new A/B, the M sweep of the small-M kernels, ncu of M = 16 vs M = 64.
set -u
R=$OUT/d1; mkdir -p $R/checks $R/ab $R/msweep $R/ncu
S=$R/summary.txt
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $S
for b in .bundles/sm90new/*.json; do
  n=$(basename $b .json)
  $runner $b --shapes bench/shapes/sm90-check.txt --check --json $R/checks/check-$n.json > $R/checks/check-$n.log 2>&1
  echo "$n: exit $? $(grep -c ' PASS ' $R/checks/check-$n.log) PASS $(grep -c ' FAIL ' $R/checks/check-$n.log) FAIL" >> $S
done
for b in sm90_bf16_256x128_coop sm90_bf16_128x128_pingpong sm90_bf16_64x128_pingpong_k2; do
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 $runner .bundles/sm90new/$b.json --m 300 --n 521 --k 203 --check > $R/checks/san-$b-$tool.log 2>&1
    echo "$b $tool 300x521x203: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/checks/san-$b-$tool.log | head -1)" >> $S
  done
done
echo "== A/B" >> $S
printf "2048 2048 2048\n4096 4096 4096\n6144 6144 6144\n256 8192 8192\n512 8192 8192\n" > /tmp/ab.txt
for round in 1 2; do
  for n in sm90_bf16_256x128x64_coop_c1x1_rm_s8_st0 sm90_bf16_128x128x64_pingpong_c1x1_rm_s8_st0 sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0 sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0; do
    for v in abold abnew; do
      $runner .bundles/$v/$n.json --shapes /tmp/ab.txt --check --bench --vs cublas --warmup 10 --iters 30 --json $R/ab/$v-$n-$round.json > $R/ab/$v-$n-$round.log 2>&1
      echo "$v $n round $round: exit $?" >> $S
    done
  done
done
echo "== M sweep" >> $S
for m in 16 24 32 48 64 96 128; do echo "$m 8192 8192"; done > /tmp/ms.txt
for m in 16 32 64; do echo "$m 8192 28672"; echo "$m 28672 8192"; done >> /tmp/ms.txt
for n in sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0 sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_sk sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_k2 sm90_bf16_64x64x64_pingpong_c1x1_rm_s8_st0 sm90_bf16_64x256x64_pingpong_c1x1_rm_s8_st0; do
  $runner .bundles/abnew/$n.json --shapes /tmp/ms.txt --check --bench --vs cublas --warmup 10 --iters 30 --json $R/msweep/$n.json > $R/msweep/$n.log 2>&1
  echo "$n: exit $?" >> $S
done
echo "== ncu" >> $S
for m in 16 64; do
  ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section Occupancy -k regex:sm90 -c 1 $runner .bundles/abnew/sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0.json --m $m --n 8192 --k 8192 > $R/ncu/ncu-64x128pp-m$m.txt 2>&1
  ncu --clock-control none --metrics dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_hit_rate.pct,smsp__cycles_active.avg,l1tex__m_xbar2l1tex_read_bytes.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum -k regex:sm90 -c 1 $runner .bundles/abnew/sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0.json --m $m --n 8192 --k 8192 > $R/ncu/metrics-64x128pp-m$m.txt 2>&1
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> $S
tar -C $OUT -czf $OUT/d1.tgz d1 && rm -rf $R
