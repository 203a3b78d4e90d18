# The test problems whose pick changes when the split direct candidates join
# the shipped model (.bundles/dsk/test-changed.txt: "M N K DTYPE NEW_PICK",
# from gemm-dispatch with the shipped model and with the candidate model,
# over bench/shapes/test.txt, bf16 and f16; kept as scripts/test-changed.txt),
# each run ROUNDS times (default 2) beside cuBLASLt in one process (interleaved, GPU timing, medians): the shipped library's
# pick (gemm-runner --library, .device/kernels-lib.tar.xz) and the new pick
# (its bundle in .bundles/dsk). Writes $OUT/dsk/abtest/*.json.
set -u
source bench/lib/build-runner.sh && build_gemm_runner /tmp/dsk-build.log > /dev/null || exit 2
R=$OUT/dsk/abtest; mkdir -p $R /tmp/dsklib
[ -d /tmp/dsklib/kernels ] || tar -C /tmp/dsklib -xJf .device/kernels-lib.tar.xz
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
for round in $(seq 1 ${ROUNDS:-2}); do
  while read -r m n k dtype pick; do
    s=${m}x${n}x${k}-$dtype-r$round
    timeout 60 $runner --library /tmp/dsklib/kernels --dtype $dtype --m $m --n $n --k $k --bench --vs cublas \
      --json $R/library-$s.json > $R/library-$s.log 2>&1
    timeout 60 $runner .bundles/dsk/$pick.json --m $m --n $n --k $k --bench --vs cublas --check \
      --json $R/new-$s.json > $R/new-$s.log 2>&1
  done < .bundles/dsk/test-changed.txt
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
