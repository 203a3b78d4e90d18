# Session 11, call 4: what the small problems we lose on in GPU time
# (bench/results/2026-11-28-h200-gpu-timing, call 1: 7-25 us, 0.72-0.84x)
# run: the library's pick and cuBLASLt's kernel, one launch each under
# Nsight Compute (duration, launch, occupancy, speed of light).
set -u
R=$OUT/c4; mkdir -p $R
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
while read m n k; do
  echo "== $m $n $k"
  timeout 90 ncu --clock-control none --section SpeedOfLight --section LaunchStats --section Occupancy \
    --section MemoryWorkloadAnalysis --metrics gpu__time_duration.sum \
    $runner --library .device/kernels --dtype bf16 --m $m --n $n --k $k --bench --vs cublas --warmup 1 --iters 1 2>&1 |
    grep -v "^==PROF==" | grep -E "^  [A-Za-z_].*\(|Duration|gpu__time|Grid Size|Block Size|Registers Per|Shared Memory Config|Dynamic Shared|Waves Per SM|Achieved Occupancy|Theoretical Occupancy|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|L2 Hit Rate|Block Limit|Elapsed Cycles|SM Active Cycles"
done < bench/results/2026-11-28-h200-gpu-timing/scripts/small-shapes.txt > $R/ncu-small.txt 2>&1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
