# Call 2: the package's whole pytest suite with the self-contained compiler
# (.device/gemm-opt-static.xz carried; old results' .tgz files left behind
# to keep the working tree under 64 MiB), and racecheck of the narrow pick
# whose call-1 racecheck reported a hazard inside cuBLASLt's reference
# kernel, now against the naive reference alone.
set -u
r=/tmp/r2; rm -rf $r; mkdir -p $r $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $r/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $r/build-runner.log || exit 2
source bench/lib/install-package.sh && install_gemm_package $r/pip.log || exit 2
export GEMM_CACHE_DIR=/tmp/gemm-cache
(cd python && GEMM_RUNNER=$runner PYTHONUNBUFFERED=1 timeout 360 python3 -m pytest -rs -p no:cacheprovider \
  --durations=5 tests) > $r/pytest.log 2>&1; echo "pytest exit $? ($SECONDS s)"
tail -4 $r/pytest.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $runner --library .device/kernels \
  --layout row,row,row --m 45 --n 7168 --k 2048 --check --reference naive > $r/racecheck-45-naive.log 2>&1
echo "racecheck 45 7168 2048 row,row,row, naive reference: exit $? $(grep -m1 'RACECHECK SUMMARY' $r/racecheck-45-naive.log)" | tee $r/sanitizers.txt
tar czf $OUT/r2.tgz -C /tmp r2
