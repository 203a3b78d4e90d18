# Session 9, call E: the kernel library's narrow tiles along N as the
# dispatcher picks them (gemm-runner --library --check, against cuBLASLt and
# the naive reference), in the layouts and forms the package's tests do not
# reach: batched (plain and M-major A), f16. (An f32 C is not in the
# library; the 128x80 f32-C kernel is among call 1's checks.)
set -u
R=/tmp/s9e; rm -rf $R; mkdir -p $R $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log || exit 2
pass=0; fail=0
while read -r args; do
  [ -z "$args" ] && continue
  for dtype in bf16 f16; do
    if "$runner" --library .device/kernels --dtype $dtype $args --check >> $R/check.log 2>&1; then
      pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: --dtype $dtype $args" >> $R/check.log; fi
  done
done <<'SHAPES'
--m 7269 --n 272 --k 2904
--m 7269 --n 272 --k 2944 --layout col,col,row
--m 384 --n 13824 --k 5120
--m 1216 --n 928 --k 4928 --layout col,col,row
--m 2048 --n 200 --k 1024 --layout col,col,row
--m 1000 --n 272 --k 1024 --batch 4
--m 3000 --n 200 --k 2048 --batch 3
--m 2000 --n 144 --k 4096 --batch 2 --layout col,col,row
SHAPES
grep "^library:" $R/check.log | sed 's/ (model.*//' > $R/picks.txt
echo "checks: $pass passed, $fail failed" | tee $R/summary.txt
tar -C /tmp -czf $OUT/s9e.tgz s9e
