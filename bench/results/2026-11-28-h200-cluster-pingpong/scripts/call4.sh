# Session 10, call 4: which cuBLASLt kernel runs on the shapes where our
# picks lose (its name carries its tile, cluster and split): one launch
# each under Nsight Compute's duration metric, with ours beside it.
set -u
R=$OUT/c4; mkdir -p $R
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
B=.device/kernels/sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0.json
while read m n k; do
  for dt in bf16; do
    echo "== $m $n $k"
    timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum $runner $B --m $m --n $n --k $k \
      --bench --vs cublas --warmup 1 --iters 1 2>&1 | grep -E "^  [A-Za-z_].*\(|gpu__time_duration" | grep -v "^  sm90_bf16_128x256"
  done
done < bench/results/2026-11-28-h200-cluster-pingpong/scripts/cublas-shapes.txt > $R/cublas-kernels.txt 2>&1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
