# Session 4, device call 2: the search and the suite with the compiler that
# keeps split-K / stream-K mainloops uniform; then five interleaved rounds of
# the squares' best tiles and their stream-K twins.
set -u
R=$OUT/c2; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu-start.txt
DEADLINE_S=400 WORK=/tmp/gemm-tune bash bench/tune.sh .bundles/tune3 > $R/tune.log 2>&1
echo "tune exit $?" >> $R/tune.log
cp bench/tuning/sm90-h200.json bench/tuning/sm90-h200.md bench/tuning/sm90-h200-heuristic.md $R/
tar -C /tmp -czf $R/tune-runs.tgz gemm-tune
L2=warm bash bench/suite.sh .bundles/tune3 $R/suite > $R/suite.log 2>&1
echo "suite exit $?" >> $R/suite.log
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log
mkdir -p $R/squares
printf "4096 4096 4096\n6144 6144 6144\n8192 8192 8192\n" > /tmp/sq.txt
for round in 1 2 3 4 5; do
  for n in 128x256x64_coop_c1x1 256x128x64_coop_c2x1 128x192x64_coop_c2x1 128x256x64_coop_c2x1; do
    for v in "" _sk; do
      b=.bundles/tune3/sm90_bf16_${n}_rm_s8_st0$v
      $runner $b.json --shapes /tmp/sq.txt --bench --vs cublas --warmup 10 --iters 30 --json $R/squares/$n$v-$round.json > $R/squares/$n$v-$round.log 2>&1
    done
  done
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv > $R/gpu-end.txt
python3 - $R/squares > $R/squares-table.txt <<'PY'
import json,glob,sys,os,collections,statistics
d=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(sys.argv[1]+'/*.json')):
    n=os.path.basename(f)[:-5].rsplit('-',1)[0]
    for r in json.load(open(f))['results']:
        b=r.get('bench')
        if not b: continue
        m=r['m']; flops=2.0*r['m']*r['n']*r['k']
        d[n][m].append((b['cublas']['median_ms']/b['ours']['median_ms'], flops/b['ours']['median_ms']/1e9, flops/b['cublas']['median_ms']/1e9))
print('kernel', 'shape', 'ratios (5 rounds)', 'median ratio', 'median ours TFLOP/s', 'median cuBLAS TFLOP/s')
for n in sorted(d):
    for m in sorted(d[n]):
        v=d[n][m]
        print(n, '%d^3'%m, ' '.join('%.3f'%x[0] for x in v), '%.3f'%statistics.median(x[0] for x in v), '%.1f'%statistics.median(x[1] for x in v), '%.1f'%statistics.median(x[2] for x in v))
PY
cat $R/squares-table.txt
grep -A12 "| group" $R/suite/results.md | head -20
tar -C $OUT -czf $OUT/c2.tgz c2 && rm -rf $R
