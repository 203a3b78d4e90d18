# Before call 1, on the compiler machine (build/ built, the package in
# build-venv): a kernel library for the measurement, .bundles/lowptn/kernels:
# the shipped library (build/kernels) plus the low-precision kernels of the
# transposed problem's narrow tiles for the library's transposable
# low-precision problems (the shipped model's akbkcc candidates narrower
# than 64: 8 tiles x 5 classes = 40 kernels). The library's index lists
# the kernels a model's lowp section measured, so they are listed as
# measured with no points in a copy of the model (.bundles/lowptn/model.json,
# used for nothing else). Then the measurement plans, one per class
# (plan-1..5.json) on the training shapes with M <= 128, and the library
# as .device/kernels-measure.tar.xz for call 1. Run from the repository
# root.
set -eu
B=.bundles/lowptn
mkdir -p $B .device
PYTHONPATH=python build-venv/bin/python - <<'PY'
import json
import gemm
model = json.load(open("bench/tuning/sm90-h200-model.json"))
narrow = [k for k in model["candidates"]
          if k.startswith("akbkcc_") and int(k.split("_")[1].split("x")[1]) < 64]
classes = [("e4m3_cbf16_qtt_", 128), ("e4m3_cbf16_qrc_", 128), ("s8_cs32_", 128),
           ("s8_cbf16_qrc_", 128), ("f32_", 32)]
added = []
for prefix, tile_k in classes:
    for key in narrow:
        parts = key.split("_")
        m, n, _ = parts[1].split("x")
        parts[1] = f"{m}x{n}x{tile_k}"
        name = "sm90_" + prefix + "_".join(parts)
        ok, why = gemm.KernelConfig(name).buildable()
        if ok:
            added.append(name)
        else:
            print(f"{name}: not built ({why})")
model.setdefault("lowp", {"source": "", "candidates": {}})["candidates"].update(
    {name: [] for name in added})
json.dump(model, open(".bundles/lowptn/model.json", "w"))
print(f"{len(added)} kernels added")
PY
rm -rf $B/kernels
build/bin/gemm-dispatch --model $B/model.json --write-library $B/kernels
cp -n build/kernels/sm90_* $B/kernels/
build/bin/gemm-opt $B/kernels/library-lowp.mlir --gemm-to-ptx=output-dir=$B/kernels -o /dev/null
awk '/^#/ || NF < 3 || $1 <= 128' bench/shapes/train.txt > $B/train-m128.txt
order=(sm90_e4m3_cbf16_qtt_ sm90_e4m3_cbf16_qrc_ sm90_s8_cs32_ sm90_s8_cbf16_qrc_ sm90_f32_)
for part in 1 2 3 4 5; do
  PYTHONPATH=python build-venv/bin/python -m gemm_bench.fit plan --lowp $B/kernels \
    --only-match "^${order[part-1]}akbkcc_" --shapes $B/train-m128.txt --json $B/plan-$part.json | head -1
done
tar -C $B -cJf .device/kernels-measure.tar.xz kernels
