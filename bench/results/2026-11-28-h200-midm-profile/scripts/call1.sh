# Session 14: what cuBLASLt runs on the training set's mid-M problems with
# large N and K (and two of its losers with a small N), against the library's
# pick: one launch each under Nsight Compute (kernel name, grid, cluster,
# duration, DRAM and L2 throughput), GEMM kernels only.
set -u
R=$OUT/m1; mkdir -p $R
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
for s in "296 18432 7168" "310 16384 16384" "193 8192 8192" "153 10240 8192" "398 24576 3072" \
         "2675 576 4856" "15240 576 7168"; do
  set -- $s
  echo "== $1 $2 $3"
  timeout 70 ncu --clock-control none --launch-count 6 --kernel-name regex:'nvjet|sm90|cutlass|gemm' \
    --section SpeedOfLight --section LaunchStats --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct \
    $runner --library .device/full/kernels --dtype bf16 --m $1 --n $2 --k $3 --bench --vs cublas --warmup 1 --iters 1 2>&1 |
    grep -v "^==PROF==" | grep -E "^  [A-Za-z_].*\(|^library|gpu__time|dram__bytes|lts__t_sector_hit|Grid Size|Cluster Size|Block Size|DRAM Throughput|Compute \(SM\) Throughput|Registers Per"
done > $R/ncu.txt 2>&1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
