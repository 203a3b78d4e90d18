set -u
r=/tmp/r; mkdir -p $r $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv > $r/gpu.txt
nvcc -arch=sm_90a -o /tmp/launch-costs bench/probes/launch-costs.cu -lcuda && /tmp/launch-costs | tee $r/launch-costs.txt
source bench/lib/install-package.sh && install_gemm_package $r/pip.log || exit 2
export GEMM_CACHE_DIR=/tmp/gemm-cache
(cd python && timeout 300 python3 -m pytest -q -x -p no:cacheprovider tests/test_gpu.py tests/test_gpu_lowp.py) > $r/pytest.log 2>&1; echo "pytest rc $?"; tail -5 $r/pytest.log
timeout 100 python3 bench/probes/host-breakdown.py > $r/breakdown.txt 2>&1; head -40 $r/breakdown.txt
timeout 120 python3 bench/python-overhead.py --json $r/overhead.json > $r/overhead.txt 2>&1; cat $r/overhead.txt
tar czf $OUT/r.tgz -C /tmp r
