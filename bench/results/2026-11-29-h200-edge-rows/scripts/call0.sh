# Call 0: one tile height over M just past and up to a multiple of it
# (N = K = 8192): is a partly out-of-bounds last row of tiles slower than a
# whole one? The shipped library's fp8 and bf16 128x128 and bf16 128x256
# cooperative kernels (.device/kernels-slices3.tar.xz), each beside
# cuBLASLt, two runs. (Run as bench/results/2026-11-29-h200-fp8-slices/
# scripts/call7.sh, into $OUT/call7.)
set -u
R=$OUT/call7; mkdir -p $R
mkdir -p .device/s3 && tar -C .device/s3 -xJf .device/kernels-slices3.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv > $R/gpu.txt
printf '%s\n' "128 8192 8192" "160 8192 8192" "193 8192 8192" "224 8192 8192" "255 8192 8192" \
  "256 8192 8192" "320 8192 8192" "384 8192 8192" > $R/shapes.txt
for k in sm90_e4m3_cbf16_qtt_128x128x128_coop_c1x1_rm_s8_st0 sm90_bf16_128x128x64_coop_c1x1_rm_s8_st0 \
         sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0; do
  for r in 1 2; do
    timeout 120 $runner .device/s3/kernels/$k.json --shapes $R/shapes.txt --bench --vs cublas \
      --warmup 10 --iters 30 --json $R/$k-r$r.json > $R/$k-r$r.log 2>&1 || echo "$k r$r failed"
  done
done
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv >> $R/gpu.txt
python3 - $R <<'PY'
import glob, json, os, statistics, sys
rows = {}
for path in sorted(glob.glob(sys.argv[1] + "/*-r*.json")):
    k = os.path.basename(path).rsplit("-r", 1)[0]
    for x in json.load(open(path))["results"]:
        b = x["bench"]
        rows.setdefault((k, x["m"]), []).append((b["ours"]["median_ms"] * 1e3, b["cublas"]["median_ms"] * 1e3))
print("| kernel | M | ours us | cuBLASLt us | ratio |")
print("|---|---:|---:|---:|---:|")
for (k, m), v in sorted(rows.items()):
    o = statistics.median(a for a, _ in v); c = statistics.median(b for _, b in v)
    print(f"| {k} | {m} | {o:.1f} | {c:.1f} | {c / o:.3f} |")
PY
