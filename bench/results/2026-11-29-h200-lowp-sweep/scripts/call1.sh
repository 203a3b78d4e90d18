# Issue 18, call 1: the kernel library's low-precision problems through the
# dispatcher over the squares and the LLM sweep, beside cuBLASLt
# (bench/lowp-h200.sh PART=sweep), with the shipped library (carried as
# .device/kernels-full.tar.xz).
set -u
R=$OUT/c1; mkdir -p $R
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
PART=sweep LIBRARY=.device/full/kernels BUDGET_S=560 bash bench/lowp-h200.sh /tmp/sweep > $R/log.txt 2>&1
echo "sweep exit $? ($SECONDS s)"
cp /tmp/sweep/README.md /tmp/sweep/gpu.txt $R/
tar -C /tmp -czf $R/sweep.tgz sweep/sweep
echo "done ($SECONDS s)"
