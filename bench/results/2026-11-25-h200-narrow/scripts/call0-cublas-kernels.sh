# Session 8, call 1: which cuBLAS kernels win on the mid-M / wave-boundary shapes, and ncu of ours vs theirs.
set -u
R=/tmp/s8c1; rm -rf $R; mkdir -p $R $OUT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
cat > $R/names.py <<'PY'
import torch, sys
from torch.profiler import profile, ProfilerActivity
shapes=[tuple(map(int,s.split('x'))) for s in sys.argv[1:]]
for (m,n,k) in shapes:
    a=torch.randn(m,k,device='cuda',dtype=torch.bfloat16); b=torch.randn(n,k,device='cuda',dtype=torch.bfloat16).t()
    for _ in range(3): c=a@b
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(5): c=a@b
        torch.cuda.synchronize()
    ev=[e for e in p.events() if e.device_type==torch.autograd.DeviceType.CUDA]
    names=sorted(set(e.name for e in ev))
    t=sum(e.device_time for e in ev)/5
    print(f"{m}x{n}x{k}: {t:.1f} us/call, kernels: {' | '.join(names)}", flush=True)
PY
S="318x3584x18944 299x57344x8192 193x8192x8192 208x29568x8192 604x16384x16384 398x24576x3072 2976x2976x2976 2704x2704x2704 2675x576x4856 186x12288x4096 7269x272x2904 516x1488x5376 203x5568x6984 432x10240x8192 2048x5120x27648 317x14336x4096 650x16384x16384 256x8192x8192 512x8192x8192 1186x4096x4096 2543x30x1533 5152x560x3800"
python3 $R/names.py $S > $R/cublas-names.txt 2>&1
cat $R/cublas-names.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
K=.device/kernels
prof() { # label bundle m n k
  timeout 120 ncu --kernel-name regex:sm90_ --launch-skip 2 --launch-count 1 --section SpeedOfLight --section LaunchStats \
    --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct \
    $runner $K/$2.json --m $3 --n $4 --k $5 --bench --warmup 2 --iters 2 > $R/ncu-$1.txt 2>&1
}
cprof() { # label m n k
  timeout 120 ncu --kernel-name regex:'gemm|xmma|cutlass' --launch-skip 3 --launch-count 1 --section SpeedOfLight --section LaunchStats \
    --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct \
    python3 -c "
import torch
a=torch.randn($2,$4,device='cuda',dtype=torch.bfloat16); b=torch.randn($3,$4,device='cuda',dtype=torch.bfloat16).t()
for _ in range(6): c=a@b
torch.cuda.synchronize()" > $R/ncu-cublas-$1.txt 2>&1
}
prof 318-64x192 sm90_bf16_64x192x64_pingpong_c1x1_rm_s8_st0 318 3584 18944
prof 318-128x256 sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0 318 3584 18944
cprof 318 318 3584 18944
prof 299-64x256 sm90_bf16_64x256x64_pingpong_c1x1_rm_s8_st0 299 57344 8192
cprof 299 299 57344 8192
prof 2976-128x192 sm90_bf16_128x192x64_coop_c1x1_rm_s8_st0 2976 2976 2976
cprof 2976 2976 2976 2976
prof 7269-128x192c2 sm90_bf16_128x192x64_coop_c2x1_rm_s8_st0 7269 272 2904
cprof 7269 7269 272 2904
echo "ncu done $SECONDS s"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -czf $OUT/s8c1.tgz s8c1
