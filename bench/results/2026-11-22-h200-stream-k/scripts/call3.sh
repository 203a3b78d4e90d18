# Device call 3: is the stream-K kernel slower where nothing is shared
# (tile counts that are whole waves), and what does ncu see at 2048 cubed.
set -u
R=$OUT/call3; mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
D=.bundles/ab/sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0
printf "8448 4096 4096\n4224 4096 8192\n2048 2048 2048\n" > /tmp/r0.txt
for b in $D ${D}_sk; do
  $runner $b.json --shapes /tmp/r0.txt --bench --vs cublas --warmup 10 --iters 30 --json $R/$(basename $b).json > $R/$(basename $b).log 2>&1
  tail -5 $R/$(basename $b).log
done
for b in $D ${D}_sk; do
  ncu --clock-control none --set full -k regex:sm90 -c 1 $runner $b.json --m 2048 --n 2048 --k 2048 > $R/ncu-$(basename $b).txt 2>&1
done
grep -E "Duration|Memory Throughput|DRAM Throughput|L2 Hit|Compute \(SM\) Throughput|Stall|Warp Cycles Per Issued|Registers" $R/ncu-*.txt | head -60
tar -C $OUT -czf $OUT/call3.tgz call3 && rm -rf $R
