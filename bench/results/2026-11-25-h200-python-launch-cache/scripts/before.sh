set -u
out=$OUT/r; mkdir -p $out /tmp/r
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv > /tmp/r/gpu.txt
source bench/lib/install-package.sh && install_gemm_package /tmp/r/pip.log || exit 2
export GEMM_CACHE_DIR=/tmp/gemm-cache
timeout 200 python3 bench/probes/host-breakdown.py > /tmp/r/breakdown.txt 2>&1
timeout 150 python3 bench/python-overhead.py --json /tmp/r/overhead.json > /tmp/r/overhead.txt 2>&1
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv >> /tmp/r/gpu.txt
tar czf $out/r.tgz -C /tmp r
cat /tmp/r/breakdown.txt | head -120; cat /tmp/r/overhead.txt
