# Issue 16: where the time of small problems goes. Training-set shapes of a
# few microseconds run 1.5-2.5 us slower than cuBLASLt on our best
# candidate (181x112x560: 7.1 against 5.1 us), while 1x1x1 to 128^3 on the
# direct kernel take 3.9-4.5 us like cuBLASLt's. Time four TMA kernels of
# the library (main's, .device/kernels-full.tar.xz) and the direct kernel
# over K = 64..8192 on one tile (latency-bound: the slope is the cost of a
# k-block on one SM) and on 132 tiles (one wave), beside cuBLASLt in the
# same process, then one launch of the pick for 181x112x560 and of
# cuBLASLt's kernel under Nsight Compute (warp states, launch statistics).
set -u
R=$OUT/s1; mkdir -p $R
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
lib=.device/full/kernels
for kernel in 128x64x64_pingpong 64x128x64_pingpong 128x128x64_coop 128x256x64_coop 128x64x64_direct; do
  name=sm90_bf16_${kernel}_c1x1_rm_s8_st0
  read -r tm tn <<< "$(echo $kernel | sed 's/^\([0-9]*\)x\([0-9]*\)x.*/\1 \2/')"
  : > $R/$kernel.shapes
  for k in 64 128 256 512 1024 2048 4096 8192; do
    echo "$tm $tn $k" >> $R/$kernel.shapes
    echo "$((tm * 12)) $((tn * 11)) $k" >> $R/$kernel.shapes
  done
  timeout 120 $runner $lib/$name.json --shapes $R/$kernel.shapes --bench --vs cublas --warmup 10 \
    --iters 30 --timeout-ms 20000 --json $R/$kernel.json > $R/$kernel.log 2>&1
  echo "$kernel: exit $?"
done
python3 - $R <<'PY'
import json, sys, glob, os
R = sys.argv[1]
for f in sorted(glob.glob(f"{R}/*.json")):
    print("##", os.path.basename(f)[:-5])
    print("| M | N | K | ours us | cuBLASLt us |")
    for x in json.load(open(f))["results"]:
        b = x["bench"]
        print(f"| {x['m']} | {x['n']} | {x['k']} | {b['ours']['median_ms']*1000:.2f} | {b['cublas']['median_ms']*1000:.2f} |")
PY
for who in ours cublas; do
  filter='regex:sm90'
  [ $who = cublas ] && filter='regex:nvjet|cutlass|gemm|sm90_xmma'
  timeout 90 ncu --clock-control none --launch-skip 3 --launch-count 1 --kernel-name "$filter" \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
    --section SchedulerStats --metrics gpu__time_duration.sum,sm__cycles_active.max,smsp__cycles_active.max \
    $runner --library $lib --dtype bf16 --m 181 --n 112 --k 560 --bench --vs cublas --warmup 2 --iters 2 \
    > $R/ncu-$who-181x112x560.txt 2>&1
  echo "ncu $who: exit $?"
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
