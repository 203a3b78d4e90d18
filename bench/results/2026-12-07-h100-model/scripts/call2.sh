# Issue 16 on an H100: the test set (220 shapes, bf16 and f16) through
# bench/suite.sh with main's library (.device/kernels-lib.tar.xz: build/kernels)
# and the shipped model's picks, each interleaved with cuBLASLt, as an H100
# user gets them. The selection is written here:
#   python -m gemm_bench.suite select --groups test --bundles build/kernels \
#     --model bench/tuning/sm90-h200-model.json --json .bundles/h100sel/selection-shipped.json
# Carried: .device/kernels-lib.tar.xz, .bundles/h100sel and the nlohmann-json .deb.
set -u
LIB=lib SELECTIONS=.bundles/h100sel C=call2 \
  bash bench/results/2026-11-29-h200-remeasure/scripts/call2.sh shipped
