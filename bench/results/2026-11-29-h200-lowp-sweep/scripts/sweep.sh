# Issue 18, calls 1 and 10: the kernel library's low-precision problems
# through the dispatcher over the squares and the LLM sweep, beside
# cuBLASLt (bench/lowp-h200.sh PART=sweep), with the library carried as
# .device/kernels-full.tar.xz (a tarball of build/kernels):
#   call 1: C=c1, BUDGET_S=560, the library shipped before this session
#   call 10: C=c10, BUDGET_S=330, the library as shipped at its end
set -u
R=$OUT/$C; mkdir -p $R
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
PART=sweep LIBRARY=.device/full/kernels BUDGET_S=$BUDGET_S bash bench/lowp-h200.sh /tmp/sweep > $R/log.txt 2>&1
echo "sweep exit $? ($SECONDS s)"
cp /tmp/sweep/README.md /tmp/sweep/gpu.txt $R/
tar -C /tmp -czf $R/sweep.tgz sweep/sweep
echo "done ($SECONDS s)"
