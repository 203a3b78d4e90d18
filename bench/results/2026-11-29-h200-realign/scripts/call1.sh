# Issue 16, call 1: operands whose rows are 16-byte but not 128-byte
# multiples. Today the runtime copies such an operand into 128-byte rows
# when it is reused at least 1024 times (--realign auto); the rest are read
# in place, each 128-byte TMA box row straddling two L2 lines. This times
# the dispatcher's pick beside cuBLASLt with the copy (auto) and without it
# (never), and without it under the tensor maps' other L2 promotions
# (GEMM_EXP_L2PROMO, a temporary switch in lib/Runtime/Launch.cpp applied
# only to A and B maps whose rows are not 128-byte multiples; not
# committed). Training shapes and made-up ones only. Two rounds in
# alternating order. The runs' logs are tarred into $OUT/c2/logs.tgz; the
# summary lines go to $OUT/c2/summary.txt as they come.
set -u
D=bench/results/2026-11-29-h200-realign/scripts
R=$OUT/c2; mkdir -p $R
L=/tmp/c2logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
mkdir -p .device/full && tar -C .device/full -xJf .device/kernels-full.tar.xz
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
echo "runner built ($SECONDS s)"
run() {  # variant realign promotion m n k
  local v=$1 realign=$2 promo=$3 m=$4 n=$5 k=$6
  local log=$L/$v-${m}x${n}x${k}-r$round.log
  if [ $promo = default ]; then unset GEMM_EXP_L2PROMO; else export GEMM_EXP_L2PROMO=$promo; fi
  timeout 40 $runner --library .device/full/kernels --dtype bf16 --m $m --n $n --k $k --realign $realign \
    --check --bench --vs cublas --warmup 10 --iters 30 > $log 2>&1
  local rc=$?
  unset GEMM_EXP_L2PROMO
  local pick=$(grep -o '^library: [^ ]*' $log | cut -d' ' -f2)
  echo "r$round $v ${m}x${n}x${k} rc=$rc $pick | $(grep -E '^\[1/1\]' $log | sed 's/^\[1\/1\] //')" >> $R/summary.txt
}
for round in 1 2; do
  if [ $round = 1 ]; then order="auto never never128 nevernone"; else order="nevernone never128 never auto"; fi
  while read m n k; do
    for v in $order; do
      case $v in
        auto) run auto auto default $m $n $k ;;
        never) run never never default $m $n $k ;;
        never128) run never128 never 128 $m $n $k ;;
        nevernone) run nevernone never none $m $n $k ;;
      esac
    done
  done < <(grep -v '^#' $D/unaligned-shapes.txt)
  echo "round $round done ($SECONDS s)"
  tar -C /tmp -czf $R/logs.tgz c2logs
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
echo "done $SECONDS s"
