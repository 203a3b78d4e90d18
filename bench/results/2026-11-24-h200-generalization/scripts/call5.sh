# Issue 16, device call 5: is copying A and B into 128-byte rows worth it,
# and from what reuse on? Operands with 16-byte but not 128-byte rows
# (K = 4104: 8208-byte rows; K = 7784), each problem with the kernel the
# dispatcher picks from the library (.bundles/lib = build/kernels), timed
# with --realign never and always (the copies timed as ours).
set -u
R=$OUT/c5; mkdir -p $R
source bench/lib/build-runner.sh
build_gemm_runner $R/build.log || exit 2
for shape in "7784 7784 7784" "64 4096 4104" "64 16384 4104" "256 4096 4104" "256 16384 4104" \
             "512 1024 4104" "512 4096 4104" "1024 1024 4104" "1024 2048 4104" "2048 1024 4104" \
             "2048 4096 4104" "4096 512 4104" "4096 4096 4104" "8192 256 4104" "16384 1024 4104" \
             "203 5568 6984" "1185 928 4920" "7269 272 2904" "2675 576 4856"; do
  set -- $shape
  for mode in never always; do
    $runner --library .bundles/lib --m $1 --n $2 --k $3 --bench --vs cublas --warmup 5 --iters 20 \
      --realign $mode --json $R/$1x$2x$3-$mode.json > $R/$1x$2x$3-$mode.log 2>&1 || echo "$shape $mode failed"
  done
done
python3 - $R <<'PY'
import json, sys, glob, os
rows = {}
for path in sorted(glob.glob(sys.argv[1] + "/*.json")):
    shape, mode = os.path.basename(path)[:-5].rsplit("-", 1)
    d = json.load(open(path))
    r = d["results"][0]; b = r["bench"]
    rows.setdefault(shape, {})[mode] = (b["ours"]["median_ms"] * 1e3, b["cublas"]["median_ms"] * 1e3,
                                        ",".join(r["staged"]) or "-", d["bundle"]["name"][9:])
for shape, modes in rows.items():
    n, a = modes.get("never"), modes.get("always")
    if n and a:
        print(f"{shape:18} {n[3]:40} never {n[0]:8.1f} us ({n[1]/n[0]:.3f}x)  always[{a[2]}] {a[0]:8.1f} us ({a[1]/a[0]:.3f}x)  gain {n[0]/a[0]:.3f}")
PY
tar -C $OUT -czf $OUT/c5.tgz c5 && rm -rf $R
