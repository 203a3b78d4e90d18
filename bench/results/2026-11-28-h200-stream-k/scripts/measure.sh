# Sourced by call1.sh and call2.sh: measure_variant R V ROUND DIR PLAN times
# the bundles of DIR on the training shapes of .bundles/sk/plan-{train,
# train2}-PLAN.json (`gemm_bench.fit measure`, 3 warm-ups, 10 runs) into
# R/measurements-V-{train,train2}-ROUND.json. Needs $runner and
# PYTHONPATH=python.
measure_variant() {
  local R=$1 v=$2 round=$3 dir=$4 plan=$5 t
  for t in train train2; do
    timeout 200 python3 -m gemm_bench.fit measure --plan .bundles/sk/plan-$t-$plan.json --runner "$runner" \
      --bundles $dir --work $R/fit-$v-$t-$round --warmup 3 --iters 10 > $R/fit-$v-$t-$round.log 2>&1
    echo "measure $v $t round $round: exit $? ($SECONDS s)"
    python3 -m gemm_bench.fit collect $R/fit-$v-$t-$round --out $R/measurements-$v-$t-$round.json | tail -1
    rm -rf $R/fit-$v-$t-$round
  done
}
