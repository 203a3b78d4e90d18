# The test set (220 shapes, bf16 and f16) through bench/suite.sh with the
# shipped library (.device/kernels-new.tar.xz, as ship-check.sh carries
# it): the picks of the model before the ship (c140b6a's) and of the
# shipped one, in that order, in one call; the shipped library holds every
# kernel of both. The selections are written here:
#   git show c140b6a:bench/tuning/sm90-h200-model.json > /tmp/preship.json
#   python -m gemm_bench.suite select --groups test --bundles build/kernels \
#     --model /tmp/preship.json --json .bundles/ship/selection-preship.json
#   python -m gemm_bench.suite select --groups test --bundles build/kernels \
#     --json .bundles/ship/selection-shipped.json
# (30 picks differ: test-changed.txt.) Carried: .device/kernels-new.tar.xz,
# .bundles/ship and the nlohmann-json .deb. Writes $OUT/test/.
LIB=new SELECTIONS=.bundles/ship C=test \
  bash bench/results/2026-11-29-h200-remeasure/scripts/call2.sh preship shipped
