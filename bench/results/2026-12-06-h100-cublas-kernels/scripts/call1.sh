# The kernels cuBLASLt runs where our picks lose (issues 16 and 18), on
# whatever GPU the call gets (an H100 on 2026-12-06), and our library's
# picks against gemm-runner's cuBLASLt baseline on the fp8 problems, both
# in one call. Carried: .device/kernels-old.tar.xz (build/kernels, the
# shipped library). Writes $OUT/c1/.
set -u
D=bench/results/2026-12-06-h100-cublas-kernels
R=$OUT/c1; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
python3 $D/scripts/kernels.py > $R/kernels.md 2> $R/kernels.err
echo "kernels: $(grep -c '^| [bf]' $R/kernels.md) problems ($SECONDS s)"
mkdir -p .device/old && tar -C .device/old -xJf .device/kernels-old.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
mkdir -p /tmp/ours
for quant in tt rc; do
  for m in 16 64 128 256 512 1024; do
    for nk in "8192 8192" "28672 8192" "8192 28672"; do
      set -- $nk
      timeout 60 "$runner" --library .device/old/kernels --dtype e4m3 --out-dtype bf16 --quant $quant \
        --m $m --n $1 --k $2 --bench --vs cublas --warmup 10 --iters 30 \
        --json /tmp/ours/$quant-${m}x$1x$2.json > /dev/null 2>&1
    done
  done
done
python3 - /tmp/ours > $R/ours.md <<'PY'
import glob, json, os, sys
print("| problem | our pick | ratio to cuBLASLt |")
print("|---|---|---:|")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    d = json.load(open(path))
    b = d["results"][0]["bench"]
    print(f"| fp8 {os.path.basename(path)[:-5]} | `{d['dispatch']['config']}` | "
          f"{b['speedup_vs_cublas']:.3f} |")
PY
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
