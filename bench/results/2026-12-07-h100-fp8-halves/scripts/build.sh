# Here: the two forms' bundles into .bundles/halves (the new form needs the
# compiler of this study's experiment, which takes it when GEMM_HALVES is set).
rm -rf .bundles/halves && mkdir -p .bundles/halves
build/bin/gemm-opt bench/results/2026-12-07-h100-fp8-halves/scripts/old.mlir \
  --gemm-to-ptx="output-dir=.bundles/halves" -o /dev/null
GEMM_HALVES=1 build/bin/gemm-opt bench/results/2026-12-07-h100-fp8-halves/scripts/new.mlir \
  --gemm-to-ptx="output-dir=.bundles/halves" -o /dev/null
