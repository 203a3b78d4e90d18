# Issue 16, second call: the streaming rate and the fixed cost of the
# M <= 64 kernels. M = 16 and 64, N = 4096, K = 512..16384 through the
# library's split-K pingpong kernels (64x64 k2, k4; 64x128 k2, k4) and the
# unsplit 64x128 pingpong, beside cuBLASLt in the same process: a line
# through time against K gives each kernel's bytes per microsecond (slope)
# and its fixed cost (intercept). Then the Nsight Compute runs of call 1
# again (181x112x560, the library's pick and cuBLASLt's kernel), whose files
# did not come back (too many files under $OUT): everything is tarred now.
set -u
R=/tmp/s2; mkdir -p $R
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
lib=.device/full/kernels
: > $R/stream.shapes
for m in 16 64; do for k in 512 1024 2048 4096 8192 16384; do echo "$m 4096 $k" >> $R/stream.shapes; done; done
for kernel in 64x64x64_pingpong_c1x1_rm_s8_st0_k2 64x64x64_pingpong_c1x1_rm_s8_st0_k4 \
              64x128x64_pingpong_c1x1_rm_s8_st0 64x128x64_pingpong_c1x1_rm_s8_st0_k2 \
              64x128x64_pingpong_c1x1_rm_s8_st0_k4; do
  timeout 120 $runner $lib/sm90_bf16_$kernel.json --shapes $R/stream.shapes --bench --vs cublas --warmup 10 \
    --iters 30 --timeout-ms 20000 --json $R/$kernel.json > $R/$kernel.log 2>&1
  echo "$kernel: exit $?"
done
python3 - $R <<'PY'
import json, sys, glob, os
R = sys.argv[1]
for f in sorted(glob.glob(f"{R}/64x*.json")):
    rows = json.load(open(f))["results"]
    print("##", os.path.basename(f)[:-5])
    for m in (16, 64):
        pts = [(x["k"], x["bench"]["ours"]["median_ms"] * 1000, x["bench"]["cublas"]["median_ms"] * 1000)
               for x in rows if x["m"] == m]
        def fit(i):
            n = len(pts); xs = [p[0] * 4096 * 2 / 1e6 for p in pts]; ys = [p[i] for p in pts]
            mx, my = sum(xs) / n, sum(ys) / n
            b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
            return 1 / b, my - b * mx  # MB per us (= TB/s), intercept us
        (ro, io), (rc, ic) = fit(1), fit(2)
        print(f"M={m}: " + ", ".join(f"K={k} {o:.2f}/{c:.2f} us" for k, o, c in pts))
        print(f"  B bytes per us: ours {ro:.2f} TB/s, fixed {io:.2f} us; cuBLASLt {rc:.2f} TB/s, fixed {ic:.2f} us")
PY
for who in ours cublas; do
  filter='regex:sm90'
  [ $who = cublas ] && filter='regex:nvjet|xmma|cutlass|splitK|gemv|gemmk'
  timeout 100 ncu --clock-control none --launch-skip 1 --launch-count 1 --kernel-name "$filter" \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
    --section SchedulerStats --metrics gpu__time_duration.sum \
    $runner --library $lib --dtype bf16 --m 181 --n 112 --k 560 --bench --vs cublas --warmup 3 --iters 3 \
    > $R/ncu-$who-181x112x560.txt 2>&1
  echo "ncu $who: exit $?"
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
rm -f $R/build.log
tar -C /tmp -cJf $OUT/s2.tar.xz s2
echo "done ($SECONDS s)"
