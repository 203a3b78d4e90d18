# Issue 18, calls 2, 4 and 6: low-precision kernels timed on the training
# shapes (`gemm_bench.fit measure`, 3 warm-ups, 10 runs, GPU timing; `fit
# collect`), for `gemm_bench.fit lowp`: the model's residuals of these
# kernels.
#   call 2: LIB=full PLAN=plan-lowp.json OUTNAME=measurements-lowp-train C=c2
#           the shipped library's 44 (`fit plan --lowp build/kernels --json
#           .bundles/lowpfit/plan-lowp.json` here)
#   call 4: LIB=lowp PLAN=plan-lowp2.json OUTNAME=measurements-lowp-train-2 C=c4
#           the two kernels call 3's library added, which nobody had measured
#           (`fit plan --lowp build/kernels --only-match
#           'qbb_128x192x128_coop_c2x1|f32_128x208x32'`)
#   call 6: LIB=fp8new PLAN=plan-lowp3.json OUTNAME=measurements-lowp-train-3 C=c6
#           the 24 promoted fp8 tiles (per-tensor and row-wise) the library
#           lacked (scripts/fp8new.txt, compiled here into
#           .device/kernels-fp8new.tar.xz; plan: fit.lowp_plan of them)
#   call 8: LIB=fp8new2 PLAN=plan-lowp4.json OUTNAME=measurements-lowp-train-4 C=c8
#           CHECK=scripts/fp8new-2.txt: the other fp8 classes' 14 promoted
#           tiles the library lacked (block-wise; per-tensor to e4m3), each
#           checked over bench/shapes/sm90-lowp-check.txt first
# LIB names .device/kernels-LIB.tar.xz (a tarball of a kernels/ directory);
# CHECK is relative to LISTS, this results directory by default
# (bench/results/2026-11-29-h200-fp8-slices reuses the script).
set -u
LISTS=${LISTS:-bench/results/2026-11-29-h200-lowp-sweep}
R=$OUT/$C; mkdir -p $R
mkdir -p .device/$LIB && tar -C .device/$LIB -xJf .device/kernels-$LIB.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
echo "runner built ($SECONDS s)"
if [ -n "${CHECK:-}" ]; then
  source bench/lib/check-bundles.sh
  echo "checks: $(check_bundles $R/check.log bench/shapes/sm90-lowp-check.txt \
    $(for n in $(cat $LISTS/$CHECK); do echo .device/$LIB/kernels/$n.json; done)) ($SECONDS s)"
fi
export PYTHONPATH=$PWD/python
timeout 540 python3 -m gemm_bench.fit measure --plan .bundles/lowpfit/$PLAN --runner "$runner" \
  --bundles .device/$LIB/kernels --work /tmp/lowpfit-$C --warmup 3 --iters 10 > $R/measure.log 2>&1
echo "measure exit $? ($SECONDS s)"
python3 -m gemm_bench.fit collect /tmp/lowpfit-$C --out $R/$OUTNAME.json | tail -1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done ($SECONDS s)"
