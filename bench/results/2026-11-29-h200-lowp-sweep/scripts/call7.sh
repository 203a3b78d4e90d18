# Issue 18, call 7: the library holding every measured low-precision kernel
# (call 6's 24 fp8 kernels too; .device/kernels-all.tar.xz, the model's
# lowp section fitted on calls 2, 4 and 6): each new kernel checked over
# bench/shapes/sm90-lowp-check.txt (scripts/fp8new.txt: their names), then the sweep, then the 3 problems
# whose pick changed against call 5's library (.device/kernels-full.tar.xz
# here), two rounds in alternating order (sweep-ab.sh's loop).
set -u
D=bench/results/2026-11-29-h200-lowp-sweep
R=$OUT/c7; mkdir -p $R
mkdir -p .device/all && tar -C .device/all -xJf .device/kernels-all.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $R/check.log bench/shapes/sm90-lowp-check.txt $(for n in $(cat $D/scripts/fp8new.txt); do echo .device/all/kernels/$n.json; done)) ($SECONDS s)"
NEW=all CHANGED=changed-all.txt C=c7 bash $D/scripts/sweep-ab.sh
echo "done ($SECONDS s)"
