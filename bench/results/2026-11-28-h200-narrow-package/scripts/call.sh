# The narrow tiles of transposed problems through the kernel library and the
# Python package on the H200 (issue 16), one device call, from the
# repository root with .device/ (kernels-full.tar.xz: build/kernels; the
# nlohmann-json .deb) and .whl/ carried (no gemm-opt-static: with it the
# working tree is over the device's 64 MiB, so the `compiler` tests skip):
#  1. the package's whole pytest suite (GPU tests included);
#  2. gemm-runner --library --check: one problem per narrow kernel the
#     dispatcher picks on the test set, in three layouts (row,col,row: the
#     akbkcc kernels; row,row,row: ambkcc, an N-major B; col,col,col: a
#     column-major C on the same kernels, not transposed);
#  3. compute-sanitizer memcheck and racecheck of two narrow picks.
set -u
r=/tmp/r; rm -rf $r; mkdir -p $r $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $r/gpu.txt
python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)' >> $r/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $r/build-runner.log || exit 2
source bench/lib/install-package.sh && install_gemm_package $r/pip.log || exit 2
export GEMM_CACHE_DIR=/tmp/gemm-cache
(cd python && GEMM_RUNNER=$runner PYTHONUNBUFFERED=1 timeout 300 python3 -m pytest -rs -p no:cacheprovider \
  --durations=5 tests) > $r/pytest.log 2>&1; echo "pytest exit $? ($SECONDS s)"
tail -4 $r/pytest.log
grep -v '^#' bench/results/2026-11-28-h200-narrow-package/narrow-picks.txt | while read m n k; do
  for layout in row,col,row row,row,row col,col,col; do
    timeout 60 $runner --library .device/kernels --layout $layout --m $m --n $n --k $k --check 2>&1 |
      grep -E "^library: sm90|check|error|FAIL" | sed "s/^/$m $n $k $layout: /"
  done
done > $r/library-check.log
echo "library checks: $(grep -c 'check PASS' $r/library-check.log) passed," \
  "$(grep -c 'FAIL\|error' $r/library-check.log) failed ($SECONDS s)"
for tool in memcheck racecheck; do
  for shape in "45 7168 2048 row,row,row" "619 1808 128 row,col,row"; do
    set -- $shape
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $runner --library .device/kernels \
      --layout $4 --m $1 --n $2 --k $3 --check > $r/$tool-$1.log 2>&1
    echo "$tool $shape: exit $? $(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' $r/$tool-$1.log)"
  done
done | tee $r/sanitizers.txt
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $r/gpu.txt
tar czf $OUT/r.tgz -C /tmp r
