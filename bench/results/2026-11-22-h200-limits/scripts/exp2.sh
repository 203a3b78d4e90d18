# 256x192 cooperative (192 accumulator registers per consumer) against 128x256.
# correctness, then 3 interleaved rounds at the squares.
set -u
R=$OUT/exp2; mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu-start.txt
K=$(ls .bundles/exp2/*.json)
for b in $K; do
  $runner $b --shapes bench/shapes/sm90-check.txt --check > $R/check-$(basename $b .json).log 2>&1; echo "$(basename $b) check exit $?"
done
printf "4096 4096 4096\n6144 6144 6144\n8192 8192 8192\n" > /tmp/sq.txt
for round in 1 2 3; do
  L=$K; [ $round = 2 ] && L=$(echo $K | tr ' ' '\n' | tac)
  for b in $L; do
    n=$(basename $b .json)
    $runner $b --shapes /tmp/sq.txt --bench --vs cublas --warmup 10 --iters 30 --json $R/$n-$round.json > $R/$n-$round.log 2>&1
  done
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv > $R/gpu-end.txt
python3 - $R > $R/table.txt <<'PY'
import json,glob,sys,os,collections,statistics
d=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(sys.argv[1]+'/*-[0-9].json')):
    n=os.path.basename(f)[:-5].rsplit('-',1)[0]
    j=json.load(open(f))
    for r in j['results']:
        b=r.get('bench')
        if not b: continue
        flops=2.0*r['m']*r['n']*r['k']
        d[n][r['m']].append((b['cublas']['median_ms']/b['ours']['median_ms'], flops/b['ours']['median_ms']/1e9, flops/b['cublas']['median_ms']/1e9))
for n in sorted(d):
    for m in sorted(d[n]):
        v=d[n][m]
        print(n, '%d^3'%m, ' '.join('%.3f'%x[0] for x in v), 'median %.3f'%statistics.median(x[0] for x in v), 'ours %.1f'%statistics.median(x[1] for x in v), 'cublas %.1f'%statistics.median(x[2] for x in v))
PY
cat $R/table.txt
grep -h -i "clock\|cluster" $R/*-1.log | sort | uniq -c | head
tar -C $OUT -czf $OUT/exp2.tgz exp2 && rm -rf $R
