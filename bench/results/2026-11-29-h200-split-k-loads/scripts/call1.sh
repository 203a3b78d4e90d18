# Split-K: the last arriver adds the other split's partial two epilogue
# sub-tiles at a time when there is one other (KernelShape::subTilesPerAdd),
# one L2 round trip instead of two. On the H200, with .device (the new
# library as kernels-full.tar.xz, main's as kernels-main.tar.xz, the
# nlohmann-json .deb) and .bundles/skl (the 51 changed kernels, new/ and
# old/ with *_main.json copies of the old manifests; ab.txt: each changed
# kernel with the test set's problems the model gives it, plus the M = 16 /
# 64, N = 4096 K sweep of 64x128 k2; selection-test.json: the model's test
# picks) carried:
# 1. the 51 changed kernels checked over bench/shapes/sm90-check.txt;
#    memcheck and racecheck of two at 777x333x1100;
# 2. old against new kernel on ab.txt, beside cuBLASLt, 3 rounds in
#    alternating order;
# 3. the test set through the suite on the new library.
set -u
R=/tmp/k1; rm -rf $R; mkdir -p $R/checks $R/ab
for v in full main; do mkdir -p .device/$v && tar -C .device/$v -xJf .device/kernels-$v.tar.xz; done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
source bench/lib/build-runner.sh && build_gemm_runner $R/build.log > /dev/null || exit 2
pass=0; fail=0
for k in $(cat .bundles/skl/changed.txt); do
  timeout 60 $runner .bundles/skl/new/$k.json --shapes bench/shapes/sm90-check.txt --check --timeout-ms 20000 \
    > $R/checks/$k.log 2>&1 || echo "$k: exit $?"
  pass=$((pass + $(grep -c 'check PASS' $R/checks/$k.log))); fail=$((fail + $(grep -c 'check FAIL' $R/checks/$k.log)))
done
echo "checks: $pass PASS, $fail FAIL ($SECONDS s)"
for k in sm90_bf16_64x128x64_pingpong_c1x1_rm_s8_st0_k2 sm90_bf16_128x128x64_coop_c1x1_rm_s8_st0_k2; do
  for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $runner .bundles/skl/new/$k.json \
      --m 777 --n 333 --k 1100 --check --reference naive > $R/checks/$tool-$k.log 2>&1
    echo "$tool $k: exit $? $(grep -oE 'check (PASS|FAIL)' $R/checks/$tool-$k.log | head -1) $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/checks/$tool-$k.log)"
  done
done
for k in $(cut -d' ' -f1 .bundles/skl/ab.txt | sort -u); do
  grep "^$k " .bundles/skl/ab.txt | cut -d' ' -f2- > $R/ab/$k.shapes
done
for round in 1 2 3; do
  for k in $(cut -d' ' -f1 .bundles/skl/ab.txt | sort -u); do
    order="old new"; [ $round -eq 2 ] && order="new old"
    for v in $order; do
      manifest=.bundles/skl/$v/$k.json; [ $v = old ] && manifest=.bundles/skl/old/${k}_main.json
      timeout 100 $runner $manifest --shapes $R/ab/$k.shapes --bench --vs cublas --warmup 10 --iters 30 \
        --timeout-ms 20000 --json $R/ab/$k-$v-r$round.json > /dev/null 2>&1 || echo "$k $v round $round failed"
    done
  done
done
echo "A/B done ($SECONDS s)"
python3 - $R/ab <<'PY'
import json, sys, glob, os, math, statistics
R = sys.argv[1]
t = {}
for f in glob.glob(f"{R}/*-r*.json"):
    k, v, r = os.path.basename(f)[:-5].rsplit("-", 2)
    for x in json.load(open(f))["results"]:
        b = x["bench"]
        t.setdefault((k, x["m"], x["n"], x["k"]), {}).setdefault(v, []).append(
            (b["ours"]["median_ms"] * 1000, b["cublas"]["median_ms"] / b["ours"]["median_ms"]))
print("| kernel | M | N | K | old us | new us | old/new | ratio to cuBLASLt old | new |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
logs = []
for (k, m, n, kk), v in sorted(t.items()):
    o = statistics.median(x[0] for x in v["old"]); nw = statistics.median(x[0] for x in v["new"])
    ro = statistics.median(x[1] for x in v["old"]); rn = statistics.median(x[1] for x in v["new"])
    if not (n == 4096 and m in (16, 64) and "bf16_64x128x64_pingpong" in k and kk in (512, 1024, 2048, 4096, 8192, 16384)):
        logs.append(math.log(o / nw))
    print(f"| {k.replace('sm90_', '').replace('_c1x1_rm_s8_st0', '')} | {m} | {n} | {kk} | {o:.2f} | {nw:.2f} | {o / nw:.3f} | {ro:.3f} | {rn:.3f} |")
print(f"\ngeomean old/new over the test-set problems: {math.exp(sum(logs) / len(logs)):.3f} ({len(logs)} problems)")
PY
MODEL=bench/tuning/sm90-h200-model.json SHAPE_GROUPS=test SELECTION=.bundles/skl/selection-test.json L2=warm \
  timeout 200 bash bench/suite.sh .device/full/kernels $R/test-new > $R/test-new.log 2>&1
echo "test new exit $? ($SECONDS s)"
rm -rf $R/*/runs $R/build.log
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
tar -C /tmp -czf $OUT/k1.tgz k1
echo "done ($SECONDS s)"
