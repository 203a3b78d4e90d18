# Tensor-pipe utilisation of ours against cuBLAS's kernel at the squares (ncu, clocks as found).
set -u
R=$OUT/prof2; mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv > $R/gpu.txt
b=.bundles/prof/sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0
for s in 4096 6144 8192; do
  ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis --section LaunchStats \
      --section MemoryWorkloadAnalysis -c 12 $runner $b.json --m $s --n $s --k $s --bench --vs cublas --warmup 1 --iters 1 > $R/ncu-$s.txt 2>&1
  echo "== $s"; grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|SM Frequency|Compute \(SM\) Throughput|DRAM Throughput|SM Busy|L2 Hit Rate  |Grid Size|Cluster Size|Registers Per|Shared Memory Per Block|Block Size" $R/ncu-$s.txt | grep -v -i "randn\|fill\|init" | head -80
done
tar -C $OUT -czf $OUT/prof2.tgz prof2 && rm -rf $R
