# After call1.sh on the same machine (its gemm-runner build): the training shapes
# where a split direct candidate applies and a TMA kernel would stage rows
# (.bundles/dsk/ab-shapes.txt, 14 of train's), each timed beside cuBLASLt in
# one process (interleaved, GPU timing, medians): the shipped library's pick
# (gemm-runner --library, .device/kernels-lib.tar.xz: build/kernels) and
# every split direct candidate. Writes $OUT/dsk/ab/*.json.
# .bundles/dsk/ab-shapes.txt (kept as scripts/ab-shapes.txt): the shapes
# of .bundles/dsk/plan-train.json for which gemm_bench.fit.staging(shape)
# has a staged operand.
set -u
source bench/lib/build-runner.sh && build_gemm_runner /tmp/dsk-build.log > /dev/null || exit 2
R=$OUT/dsk/ab; mkdir -p $R /tmp/dsklib
tar -C /tmp/dsklib -xJf .device/kernels-lib.tar.xz
grep -v '^#' .bundles/dsk/ab-shapes.txt | while read -r m n k; do
  timeout 60 $runner --library /tmp/dsklib/kernels --m $m --n $n --k $k --bench --vs cublas \
    --json $R/library-${m}x${n}x${k}.json > $R/library-${m}x${n}x${k}.log 2>&1
done
echo "library done ($SECONDS s)"
for bundle in .bundles/dsk/sm90_*.json; do
  name=$(basename $bundle .json)
  timeout 120 $runner $bundle --shapes .bundles/dsk/ab-shapes.txt --bench --vs cublas \
    --json $R/$name.json > $R/$name.log 2>&1
done
echo "candidates done ($SECONDS s)"
