# Issue 16's tiny problems: the dispatcher's pick from the whole kernel
# library against cuBLASLt, interleaved in one process, many iterations.
set -u
R=/tmp/tiny; mkdir -p $R
python3 -c "import tarfile; tarfile.open('.device/kernels-full.tar.xz').extractall('/tmp/lib')"
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log > /dev/null || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv > $R/gpu.txt
for dt in bf16 f16; do
  for s in "1 1 1" "1 8 8" "8 8 8" "16 16 16" "32 32 32" "64 64 64" "1 64 64" "16 128 128" "128 128 128"; do
    set -- $s
    for round in 1 2 3; do
      "$runner" --library /tmp/lib/kernels --dtype $dt --m $1 --n $2 --k $3 --bench --vs cublas \
        --warmup 50 --iters 500 --json $R/$dt-$1x$2x$3-r$round.json > $R/$dt-$1x$2x$3-r$round.log 2>&1
      echo "$dt $1x$2x$3 r$round exit $?"
    done
  done
done > $R/summary.txt
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv >> $R/gpu.txt
python3 - <<'PY' > $R/table.md
import json, glob, os, statistics
rows = {}
for path in sorted(glob.glob("/tmp/tiny/*.json")):
    name = os.path.basename(path).rsplit("-r", 1)[0]
    try:
        d = json.load(open(path))
        b = d["results"][0]["bench"]
        kernel = d.get("bundle")
        kernel = kernel.get("name", "") if isinstance(kernel, dict) else str(kernel)
        rows.setdefault(name, {"kernel": kernel, "ours": [], "cublas": []})
        rows[name]["ours"].append(b["ours"]["median_ms"] * 1e3)
        rows[name]["cublas"].append(b["cublas"]["median_ms"] * 1e3)
    except Exception as e:
        rows.setdefault(name, {"kernel": f"error {e}", "ours": [], "cublas": []})
print("| problem | kernel | ours us (median of 3 runs' medians) | cuBLASLt us | ours - cuBLASLt us |")
print("|---|---|---|---|---|")
for name, r in rows.items():
    if r["ours"]:
        o, c = statistics.median(r["ours"]), statistics.median(r["cublas"])
        print(f"| {name} | {r['kernel']} | {o:.2f} | {c:.2f} | {o - c:+.2f} |")
    else:
        print(f"| {name} | {r['kernel']} | | | |")
PY
cat $R/table.md
tar -C /tmp -cJf $OUT/tiny.tar.xz tiny
