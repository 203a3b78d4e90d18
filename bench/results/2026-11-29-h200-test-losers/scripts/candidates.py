"""The test set's entries below 0.90x of cuBLASLt in a measured report, and
for each the dispatcher's pick and its next choices: the candidates the
model ranks after it, found by taking each pick out of the library and
asking the dispatcher again (gemm._core.select, the product's ranking).

    candidates.py RESULTS.json KERNELS_DIR [COUNT] > candidates.txt

Output lines: "DTYPE M N K RANK CONFIG T|-": T when the candidate runs the
transposed problem (N x M x K, A and B exchanged).
"""
import glob, json, os, sys
import gemm


def main():
    results, kernels = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    model = gemm._core.DispatchModel.load(os.path.join(kernels, "model.json"))
    names = sorted({os.path.basename(p)[:-5] for p in glob.glob(kernels + "/sm90_*.json")})
    library = [gemm.KernelConfig(n) for n in names]
    losers = sorted({(r["dtype"], *r["shape"]) for r in json.load(open(results))["rows"]
                     if r["ratio"] < 0.90})
    for dtype, m, n, k in losers:
        available = [c for c in library if c.name.startswith(f"sm90_{dtype}_")]
        for rank in range(count):
            pick = gemm._core.select(m, n, k, dtype=dtype, model=model, available=available)
            print(dtype, m, n, k, rank, pick.config.name, "T" if pick.transposed else "-")
            available = [c for c in available if c.name != pick.config.name]


main()
