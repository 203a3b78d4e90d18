# Compiles scripts/arrival.mlir twice into .bundles/arrival: new/ with this
# checkout's gemm-opt (build/bin), old/ with its arrival lowering as it was
# at 0387857 (lib/Conversion/GemmToNVVM/SchedulerToNVVM.cpp: a relaxed
# atomic between two fence.acq_rel.gpu), then rebuilds this checkout's
# gemm-opt. From the repository root.
set -eu
D=bench/results/2026-12-07-h100-split-k-arrival/scripts
rm -rf .bundles/arrival && mkdir -p .bundles/arrival
build/bin/gemm-opt $D/arrival.mlir --gemm-to-ptx="output-dir=.bundles/arrival/new" -o /dev/null
cp lib/Conversion/GemmToNVVM/SchedulerToNVVM.cpp /tmp/SchedulerToNVVM.cpp.new
git show 0387857:lib/Conversion/GemmToNVVM/SchedulerToNVVM.cpp > lib/Conversion/GemmToNVVM/SchedulerToNVVM.cpp
ninja -C build gemm-opt > /dev/null
build/bin/gemm-opt $D/arrival.mlir --gemm-to-ptx="output-dir=.bundles/arrival/old" -o /dev/null
cp /tmp/SchedulerToNVVM.cpp.new lib/Conversion/GemmToNVVM/SchedulerToNVVM.cpp
ninja -C build gemm-opt > /dev/null
grep -c "atom.acq_rel.gpu" .bundles/arrival/new/*.ptx
grep -c "fence.acq_rel.gpu" .bundles/arrival/old/*.ptx
