# Why the SM clock drops at 8192 cubed: our kernel alone, then cuBLAS's beside
# it, 600 launches each, sampling clocks, power and the active clock-event
# (throttle) reasons every 100 ms.
set -u
R=$OUT/throttle; mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
q=timestamp,clocks.sm,power.draw,power.draw.instant,temperature.gpu,clocks_event_reasons.active,clocks_event_reasons.sw_power_cap,clocks_event_reasons.hw_slowdown,clocks_event_reasons.hw_power_brake_slowdown,clocks_event_reasons.sw_thermal_slowdown
nvidia-smi --query-gpu=$q --format=csv > $R/probe.csv 2>&1 || q=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active,clocks_event_reasons.sw_power_cap,clocks_event_reasons.hw_slowdown,clocks_event_reasons.sw_thermal_slowdown
nvidia-smi --query-gpu=$q --format=csv -lms 100 > $R/samples.csv &
sampler=$!
b=.bundles/ceil/sm90_bf16_128x256x64_coop_c1x1_rm_s8_st0.json
sleep 1
echo "ours alone $(date +%T.%N)" >> $R/marks.txt
$runner $b --m 8192 --n 8192 --k 8192 --bench --warmup 20 --iters 600 --json $R/ours.json > $R/ours.log 2>&1
echo "ours vs cublas $(date +%T.%N)" >> $R/marks.txt
$runner $b --m 8192 --n 8192 --k 8192 --bench --vs cublas --warmup 20 --iters 600 --json $R/vs.json > $R/vs.log 2>&1
echo "end $(date +%T.%N)" >> $R/marks.txt
sleep 1
kill $sampler
nvidia-smi -q -d PERFORMANCE,POWER,CLOCK > $R/q.txt
python3 - $R <<'PY' | tee $R/table.txt
import json,sys
for n in ('ours','vs'):
    for r in json.load(open(sys.argv[1]+'/%s.json'%n))['results']:
        b=r['bench']; f=2.0*r['m']*r['n']*r['k']
        print(n, 'ours %.1f TFLOP/s (median %.4f ms)'%(f/b['ours']['median_ms']/1e9, b['ours']['median_ms']), ('cublas %.1f TFLOP/s'%(f/b['cublas']['median_ms']/1e9)) if 'cublas' in b else '', 'clocks', b.get('clocks', r.get('clocks')))
PY
cat $R/marks.txt; cat $R/samples.csv | head -3; tail -60 $R/samples.csv
tar -C $OUT -czf $OUT/throttle.tgz throttle && rm -rf $R
