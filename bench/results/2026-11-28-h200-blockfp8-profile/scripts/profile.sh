# SASS and per-instruction warp-stall samples of the block-wise fp8 kernel
# beside the promoted per-tensor one (4096 cubed). Carry the bundles of
# gemm-opt bench/kernels/sm90-blockfp8.mlir --gemm-to-ptx and name their
# directory (default .bundles/bf8-s12, this directory's: main 10594d1).
#
#   bash profile.sh [BUNDLES]
set -u
B=${1:-.bundles/bf8-s12}
P=/tmp/prof; mkdir -p $P
source bench/lib/build-runner.sh
build_gemm_runner $P/build.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $P/gpu.txt
ncu --version | tail -1 > $P/ncu-version.txt
for k in bf_block_128x128 bf_t_128x128; do
  cuobjdump -sass $B/$k.cubin > $P/$k.sass
  timeout 150 ncu --kernel-name $k --launch-skip 2 --launch-count 1 \
    --section WarpStateStats --section SourceCounters --section InstructionStats \
    --section ComputeWorkloadAnalysis --import-source no -f -o $P/$k \
    "$runner" $B/$k.json --m 4096 --n 4096 --k 4096 --bench \
    --timing call --warmup 2 --iters 2 > $P/$k.ncu.log 2>&1
  ncu -i $P/$k.ncu-rep --page source --csv --print-source sass > $P/$k.source.csv 2> $P/$k.source.err
  ncu -i $P/$k.ncu-rep --page details > $P/$k.details.txt 2>&1
done
ls -la $P
tar -C /tmp -cJf $OUT/prof.tar.xz prof --exclude='*.ncu-rep'
