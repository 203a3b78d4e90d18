# Issue 16, call 2: the test set (220 shapes, bf16 and f16) through
# bench/suite.sh with the library of the refitted model
# (.device/kernels-c4.tar.xz: build/kernels after `ninja -C build`), the
# shipped model's picks and the refit's, in the order given (e.g.
# `shipped new`), after the library's 4-CTA cluster kernels are checked on
# bench/shapes/narrow-check.txt. The selections are written here:
#   python -m gemm_bench.suite select --groups test --bundles build/kernels \
#     --model <the shipped model> --json .bundles/c4fit/selection-shipped.json
#   python -m gemm_bench.suite select --groups test --bundles build/kernels \
#     --model bench/tuning/sm90-h200-model.json --json .bundles/c4fit/selection-new.json
# (the new library holds every kernel of the shipped one).
# Carried: .device/kernels-c4.tar.xz, .bundles/c4fit and the nlohmann-json .deb.
set -u
mkdir -p $OUT/call2 /tmp/c4lib && tar -C /tmp/c4lib -xJf .device/kernels-c4.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner /tmp/build.log > /dev/null || exit 2
source bench/lib/check-bundles.sh
echo "checks: $(check_bundles $OUT/call2/check.log bench/shapes/narrow-check.txt /tmp/c4lib/kernels/*_c4x1_*.json) ($SECONDS s)"
LIB=c4 SELECTIONS=.bundles/c4fit C=call2 \
  bash bench/results/2026-11-29-h200-remeasure/scripts/call2.sh "$@"
