# The ceiling a free stream-K could reach: each square beside a shape of the
# same tile work whose tile count is a whole number of waves (132 SMs, 128x256
# tiles; clusters of 2 on 66 cluster slots). Three interleaved rounds, each
# kernel in its own process per round; then 8192 cubed sustained (200 iters).
set -u
R=$OUT/ceil; mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu-start.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 200 > $R/clocks.csv &
sampler=$!
K=$(ls .bundles/ceil/*.json)
for b in $K; do
  $runner $b --shapes bench/shapes/sm90-check.txt --check > $R/check-$(basename $b .json).log 2>&1; echo "$(basename $b) check exit $?"
done
cat > /tmp/ceil-shapes.txt <<'S'
4096 4096 4096
3072 5632 4096
4224 4096 4096
6144 6144 6144
6912 5632 6144
8192 8192 8192
8448 8192 8192
S
for round in 1 2 3; do
  L=$K; [ $round = 2 ] && L=$(echo $K | tr ' ' '\n' | tac)
  for b in $L; do
    n=$(basename $b .json)
    echo "round $round $n $(date +%T.%N)" >> $R/marks.txt
    $runner $b --shapes /tmp/ceil-shapes.txt --bench --vs cublas --warmup 10 --iters 30 --json $R/$n-$round.json > $R/$n-$round.log 2>&1
  done
done
b=.bundles/ceil/sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0.json
echo "sustained $(date +%T.%N)" >> $R/marks.txt
$runner $b --m 8192 --n 8192 --k 8192 --bench --vs cublas --warmup 20 --iters 200 --json $R/sustained.json > $R/sustained.log 2>&1
echo "end $(date +%T.%N)" >> $R/marks.txt
kill $sampler
python3 - $R > $R/table.txt <<'PY'
import json,glob,sys,os,collections,statistics
d=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(sys.argv[1]+'/*-[0-9].json')):
    n=os.path.basename(f)[:-5].rsplit('-',1)[0]
    for r in json.load(open(f))['results']:
        b=r.get('bench')
        if b: d[n][(r['m'],r['n'],r['k'])].append((b['ours']['median_ms'], b['cublas']['median_ms']))
def tiles(s): return -(-s[0]//128) * -(-s[1]//256)
med=lambda v: statistics.median(v)
for n in sorted(d):
    print(n)
    for s,v in d[n].items():
        f=2.0*s[0]*s[1]*s[2]
        print('  %5dx%5dx%5d tiles %4d waves %.2f  ratios %s  median %.3f  ours %.1f  cublas %.1f TFLOP/s' % (s+(tiles(s), tiles(s)/132.0, ' '.join('%.3f'%(c/o) for o,c in v), med([c/o for o,c in v]), f/med([o for o,c in v])/1e9, f/med([c for o,c in v])/1e9)))
    for sq,even in (((4096,)*3,(3072,5632,4096)),((4096,)*3,(4224,4096,4096)),((6144,)*3,(6912,5632,6144)),((8192,)*3,(8448,8192,8192))):
        if sq in d[n] and even in d[n]:
            ours_even=med([o for o,c in d[n][even]])*tiles(sq)/tiles(even)
            print('  free-stream-K bound at %d^3 (from %dx%dx%d): ours %.4f ms against cuBLAS %.4f ms: %.3fx (whole tiles now %.3fx)' % ((sq[0],)+even+(ours_even, med([c for o,c in d[n][sq]]), med([c for o,c in d[n][sq]])/ours_even, med([c/o for o,c in d[n][sq]]))))
j=json.load(open(sys.argv[1]+'/sustained.json'))
for r in j['results']:
    b=r['bench']; f=2.0*r['m']*r['n']*r['k']
    print('sustained 8192^3, 200 iters: ours %.1f, cublas %.1f TFLOP/s, ratio %.3f' % (f/b['ours']['median_ms']/1e9, f/b['cublas']['median_ms']/1e9, b['cublas']['median_ms']/b['ours']['median_ms']))
PY
cat $R/table.txt
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv > $R/gpu-end.txt
tar -C $OUT -czf $OUT/ceil.tgz ceil && rm -rf $R
