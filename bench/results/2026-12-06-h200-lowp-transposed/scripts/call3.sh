# Issue 18, call 3 (instead of call 2, whose decode tests ran on an H100):
# the model refitted with call 1's measurements (NEW) against the one
# before it (old: the lowp section's own correction,
# ../2026-12-06-h200-lowp-correction/), then issue 18's sweep through the
# new library.
#  1. call2.sh without the decode tests: gemm-runner --check of each
#     problem of scripts/changed.txt with the new library, then old
#     against new beside cuBLASLt, two rounds in alternating order, within
#     LIMIT s from its start ($OUT/call2);
#  2. bench/lowp-h200.sh PART=sweep with the new library ($OUT/sweep:
#     README.md, gpu.txt; the runs in sweep.tgz).
# scripts/changed.txt: the 10 sweep problems the refit changes and 40 of
# the 280 test problems it changes (drawn with seed 20261206), first six
# columns of ../2026-11-29-h200-remeasure/scripts/lowp-changed.py.
# Carried: .device/ (kernels-old.tar.xz, kernels-new.tar.xz, the
# nlohmann-json .deb).
set -u
D=bench/results/2026-12-06-h200-lowp-transposed
DECODE=0 LIMIT=${LIMIT:-230} bash $D/scripts/call2.sh
S=$OUT/sweep; mkdir -p $S
PART=sweep LIBRARY=.device/new/kernels BUDGET_S=${SWEEP_S:-330} bash bench/lowp-h200.sh /tmp/sweep > $S/log.txt 2>&1
echo "sweep exit $? ($SECONDS s)"
cp /tmp/sweep/README.md /tmp/sweep/gpu.txt $S/ 2>/dev/null
tar -C /tmp -czf $S/sweep.tgz sweep
