# The trial variants' bundles, on the compiler machine, with the trial
# compiler (GEMM_EXP_STAGGER, GEMM_EXP_ORDER; README): .bundles/stg/NAME_VARIANT.
set -eu
D=bench/results/2026-12-06-h200-promotion-stagger
rm -rf .bundles/stg && mkdir -p .bundles/stg
for v in base stagger order; do
  case $v in base) env=;; stagger) env="GEMM_EXP_STAGGER=300";; order) env="GEMM_EXP_ORDER=1";; esac
  sed "s/@\(st_[a-z]*_[0-9x]*\) /@\1_$v /" $D/scripts/stagger.mlir > /tmp/stagger-$v.mlir
  env $env build/bin/gemm-opt /tmp/stagger-$v.mlir \
    --gemm-to-ptx="output-dir=.bundles/stg protocol-check=false" -o /dev/null
done
