# Call 2: issue 16's test set (220 shapes, bf16 and f16; SETS=test) through the suite,
# main's runtime and the library of .device/kernels-LIB.tar.xz (LIB=edge
# here), once per selection named on the command line, in that order:
# SELECTIONS/selection-NAME.json (SELECTIONS=.bundles/remeasure here) from
# `python -m gemm_bench.suite select --groups test --bundles build/kernels
# [--model M] --json ...`, into $OUT/C (C=call2 here).
# ../2026-11-29-h200-transposed-narrow/ runs it with its own LIB, SELECTIONS, C
# and SETS.
set -u
LIB=${LIB:-edge} SELECTIONS=${SELECTIONS:-.bundles/remeasure} C=${C:-call2} SETS=${SETS:-test}
R=$OUT/$C; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/$LIB && tar -C .device/$LIB -xJf .device/kernels-$LIB.tar.xz
i=0
for name in "$@"; do
  i=$((i + 1))
  MODEL=bench/tuning/sm90-h200-model.json SHAPE_GROUPS=$SETS SELECTION=$SELECTIONS/selection-$name.json L2=warm \
    timeout 200 bash bench/suite.sh .device/$LIB/kernels /tmp/test-$i-$name > $R/test-$i-$name.log 2>&1
  echo "test $i $name exit $? ($SECONDS s)"
  rm -rf /tmp/test-$i-$name/runs
  tar -C /tmp -czf $R/test-$i-$name.tgz test-$i-$name
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"
