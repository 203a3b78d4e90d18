# Issue 18, call 2: the model refitted with call 1's measurements (NEW)
# against the shipped one (old), on the problems whose pick it changes.
#  1. gemm-runner --library NEW --check of each changed problem (against
#     cuBLASLt and the dequantised f64 reference);
#  2. the package's decode-sized GPU tests (test_decode_sized_problems in
#     python/tests/test_gpu_lowp.py) through the new library;
#  3. each changed problem timed with the old library's pick and the new
#     one's beside cuBLASLt, two rounds in alternating order
#     (../2026-11-29-h200-lowp-sweep/scripts/sweep-ab.sh with SWEEP=0;
#     $OUT/call2/ab/ab.md, ab.tgz).
# Carried: .device/kernels-old.tar.xz (the shipped build/kernels),
# .device/kernels-new.tar.xz (build/kernels built with the new model), the
# nlohmann-json .deb, .whl/ (the pinned nanobind and scikit-build-core
# wheels) and scripts/changed.txt (`TYPE OUT QUANT M N K` lines from
# ../2026-11-29-h200-remeasure/scripts/lowp-changed.py over test,
# squares and llm).
# D: the results directory whose scripts/changed.txt lists the problems
# (this one by default); DECODE=0 leaves out step 2.
set -u
D=${D:-bench/results/2026-12-06-h200-lowp-transposed}
R=$OUT/call2; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
for v in old new; do
  mkdir -p .device/$v && tar -C .device/$v -xJf .device/kernels-$v.tar.xz
done
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || { tail -20 $R/build.log; exit 2; }
echo "runner built ($SECONDS s)"

while read -r dtype out quant m n k; do
  qarg=(); [ "$quant" = - ] || qarg=(--quant "$quant")
  timeout 60 "$runner" --library .device/new/kernels --dtype $dtype --out-dtype $out "${qarg[@]}" \
    --m $m --n $n --k $k --check || echo "FAILED: $dtype $out $quant ${m}x${n}x${k} (exit $?)"
done < $D/scripts/changed.txt > $R/check.log 2>&1
echo "checks: $(grep -c 'check PASS' $R/check.log) passed, $(grep -c 'check FAIL\|FAILED' $R/check.log) failed ($SECONDS s)"

source bench/lib/install-package.sh
if [ "${DECODE:-1}" = 1 ] && install_gemm_package $R/pip-install.log; then
  (cd python && GEMM_CACHE_DIR=/tmp/gemm-cache GEMM_KERNEL_LIBRARY=$OLDPWD/.device/new/kernels timeout 120 \
     python3 -m pytest -rs -q -p no:cacheprovider tests/test_gpu_lowp.py -k decode) > $R/pytest.log 2>&1
  echo "pytest: $(tail -1 $R/pytest.log) ($SECONDS s)"
fi

LIMIT=$(( ${LIMIT:-540} - SECONDS )) LISTS=$D CHANGED=changed.txt OLD=old NEW=new C=call2/ab SWEEP=0 \
  bash bench/results/2026-11-29-h200-lowp-sweep/scripts/sweep-ab.sh
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
