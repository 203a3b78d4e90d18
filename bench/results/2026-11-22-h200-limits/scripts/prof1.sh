# Where does the stream-K fixup spend its time? ncu source counters (per-SASS stall samples)
set -u
R=$OUT/prof1; mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv > $R/gpu.txt
ncu --version > $R/ncu-version.txt
D=.bundles/prof/sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0
for s in 2048 4096; do
 for b in $D ${D}_sk; do
  n=$(basename $b)-$s
  ncu --clock-control none --set full --import-source no -k regex:sm90 -c 1 -o $R/$n $runner $b.json --m $s --n $s --k $s > $R/$n.log 2>&1
  ncu -i $R/$n.ncu-rep --page source --csv --print-source sass > $R/$n-sass.csv 2> $R/$n-sass.err
  ncu -i $R/$n.ncu-rep --page details > $R/$n-details.txt 2>&1
  grep -E "Duration|Compute \(SM\) Throughput|DRAM Throughput|L2 Hit Rate  |SM Frequency" $R/$n-details.txt | head -8
  wc -c $R/$n-sass.csv; head -c 600 $R/$n-sass.err
 done
done
printf "2048 2048 2048\n4096 4096 4096\n6144 6144 6144\n" > /tmp/sq.txt
for r in 1 2; do for b in $D ${D}_sk; do
  $runner $b.json --shapes /tmp/sq.txt --bench --vs cublas --warmup 10 --iters 30 --json $R/$(basename $b)-r$r.json > $R/$(basename $b)-r$r.log 2>&1
  tail -4 $R/$(basename $b)-r$r.log
done; done
mkdir -p $OUT/reps && mv $R/*.ncu-rep $OUT/reps/
tar -C $OUT -czf $OUT/prof1.tgz prof1 && rm -rf $R
