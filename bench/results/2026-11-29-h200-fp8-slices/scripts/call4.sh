# Call 4: compute-sanitizer on the sliced promotion (block-wise and
# per-tensor 192x128 at 200x300x1300: edge tiles, 11 k-blocks that refill
# every stage), then the lowp-sweep study's A/B (its scripts/sweep-ab.sh)
# of the library with the 192x128 kernels (NEW=slices2,
# .device/kernels-slices2.tar.xz, a tarball of build/kernels) against the
# shipped one (.device/kernels-full.tar.xz) on the problems whose pick it
# changes (scripts/changed.txt: changed-sweep.txt, the squares and the LLM
# sweep, and changed-test.txt, issue 16's test shapes, both listed by
# gemm._core.select with each library's model).
set -u
R=$OUT/call4; mkdir -p $R
mkdir -p .device/slices2 && tar -C .device/slices2 -xJf .device/kernels-slices2.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
for tool in memcheck racecheck synccheck; do
  for q in qbb qtt; do
    echo "== $tool $q"
    timeout 120 compute-sanitizer --tool $tool "$runner" \
      .device/slices2/kernels/sm90_e4m3_cbf16_${q}_192x128x128_coop_c1x1_rm_s8_st0.json \
      --m 200 --n 300 --k 1300 --check 2>&1 | tail -4
  done
done > $R/sanitizers.txt 2>&1
echo "sanitizers done ($SECONDS s)"
LISTS=bench/results/2026-11-29-h200-fp8-slices NEW=slices2 CHANGED=changed.txt C=call4 SWEEP=0 \
  bash bench/results/2026-11-29-h200-lowp-sweep/scripts/sweep-ab.sh
