# Issue 16, device call 4: why 7784 cubed runs at 0.63x. The same 128x192
# cooperative bundle on sizes whose rows are and are not 128-byte multiples
# (7784 bf16 = 15568 bytes = 121.6 x 128), with the A/B descriptors' L2
# promotion as compiled (256B), 128B and none (the manifests edited, same
# PTX), then ncu's DRAM and L2 read counts for 7784 and 7808 cubed.
set -u
R=$OUT/c4; mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
B=.bundles/exp/sm90_bf16_128x192x64_coop_c1x1_rm_s8_st0
printf "7784 7784 7784\n7784 7784 7808\n7808 7808 7808\n7680 7680 7680\n7784 7808 7784\n7808 7784 7808\n" > $R/shapes
for v in "" _l2none _l2128B; do
  $runner $B$v.json --shapes $R/shapes --bench --vs cublas --warmup 5 --iters 20 --json $R/r$v.json > $R/r$v.log 2>&1
  echo "variant '$v' exit $?"
done
python3 - $R <<'PY'
import json, sys
for v in ("", "_l2none", "_l2128B"):
    d = json.load(open(f"{sys.argv[1]}/r{v}.json"))
    for r in d["results"]:
        b = r["bench"]
        print(f"l2{v or '_256B':8} {r['m']}x{r['n']}x{r['k']}: ours {b['ours']['median_ms']*1e3:.1f} us "
              f"{b['ours']['tflops']:.0f} TF, cublas {b['cublas']['median_ms']*1e3:.1f} us "
              f"{b['cublas']['tflops']:.0f} TF, ratio {b['speedup_vs_cublas']:.3f}")
PY
for s in 7784 7808; do
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sector_hit_rate.pct,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active \
    -k regex:sm90 -c 1 $runner $B.json --m $s --n $s --k $s --bench --warmup 0 --iters 1 > $R/ncu-$s.txt 2>&1
  echo "== ncu $s"; grep -E "gpu__time|dram__bytes|lts__t_sectors|lts__t_requests|hit_rate|hmma" $R/ncu-$s.txt
done
tar -C $OUT -czf $OUT/c4.tgz c4 && rm -rf $R
