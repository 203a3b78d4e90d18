# Session 11, call 7: the package built from source on the H200 with the
# kernel library of the model refitted on GPU time (carried:
# .device/kernels-full.tar.xz, the nlohmann-json .deb, .whl/), no
# compiler, and its GPU tests, which run the new model's picks.
set -u
R=$OUT/pkg; mkdir -p $R
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/install-package.sh; install_gemm_package $R/pip-install.log || exit 2
echo "installed ($SECONDS s)"
cd python && timeout 420 python3 -m pytest -q -p no:cacheprovider -rs tests/test_gpu.py tests/test_gpu_lowp.py tests/test_grouped.py > $R/pytest-gpu.log 2>&1
echo "pytest exit $? ($SECONDS s)"
tail -15 $R/pytest-gpu.log
