# Session 4, device call 1: the warp vote after bar.red.or (shared-tile
# kernels keep their mainloop in uniform registers): correctness, sanitizers,
# old/new A/B.
set -u
R=$OUT/c1; mkdir -p $R/checks $R/ab
S=$R/summary.txt
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || { tail -20 $R/build.log; exit 2; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $S
( cat bench/shapes/sm90-check.txt; for m in 1 17 63 65 113; do echo "$m 520 200"; done; echo "17 8192 8192"; echo "8448 4096 4096" ) > /tmp/check.txt
for b in .bundles/sm90v/*.json; do
  n=$(basename $b .json)
  $runner $b --shapes /tmp/check.txt --check --json $R/checks/check-$n.json > $R/checks/check-$n.log 2>&1
  echo "$n: exit $? $(grep -c ' PASS ' $R/checks/check-$n.log) PASS $(grep -c ' FAIL ' $R/checks/check-$n.log) FAIL" >> $S
done
for b in sm90_bf16_128x256_coop_sk sm90_bf16_64x128_pingpong_k2 sm90_bf16_128x256_coop_c2x1_sk; do
  for tool in racecheck synccheck memcheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 $runner .bundles/sm90v/$b.json --m 300 --n 521 --k 203 --check > $R/checks/san-$b-$tool.log 2>&1
    echo "$b $tool 300x521x203: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/checks/san-$b-$tool.log | head -1)" >> $S
  done
done
cat $S
echo "== A/B" >> $S
printf "8448 4096 4096\n4096 4096 4096\n6144 6144 6144\n8192 8192 8192\n2048 2048 2048\n512 28672 8192\n1024 28672 8192\n2048 8192 8192\n16 8192 8192\n128 8192 8192\n" > /tmp/ab.txt
for round in 1 2; do
  for n in $(ls .bundles/vnew/*.json | xargs -n1 basename | sed 's/.json//'); do
    for v in vold vnew; do
      if [ $v = vold ] && cmp -s .bundles/vold/$n.ptx .bundles/vnew/$n.ptx; then continue; fi
      $runner .bundles/$v/$n.json --shapes /tmp/ab.txt --bench --vs cublas --warmup 10 --iters 30 --json $R/ab/$v-$n-$round.json > $R/ab/$v-$n-$round.log 2>&1
      echo "$v $n round $round: exit $?" >> $S
    done
  done
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> $S
python3 - $R/ab <<'PY'
import json,glob,sys,os,collections
d=collections.defaultdict(dict)
for f in sorted(glob.glob(sys.argv[1]+'/*.json')):
    v,rest=os.path.basename(f)[:-5].split('-',1); n,rnd=rest.rsplit('-',1)
    for r in json.load(open(f))['results']:
        b=r.get('bench')
        if not b: continue
        d[(n,v)].setdefault((r['m'],r['n'],r['k']),[]).append(b['cublas']['median_ms']/b['ours']['median_ms'])
shapes=sorted({s for k in d for s in d[k]})
print('kernel/version', *['%dx%dx%d'%s for s in shapes])
for k in sorted(d):
    print(k[0][9:],k[1],*['/'.join('%.3f'%x for x in d[k].get(s,[])) for s in shapes])
PY
