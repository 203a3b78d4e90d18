# Issue 18's sweep figures with the lowp residuals measured again (call 5),
# estimated: call 4's per-shape ratios to cuBLASLt (the shipped refit), each
# pick that call 6 changed scaled by its new / shipped ratio there (the
# same problems, both libraries in one call), and then by those of later
# A/Bs (ab.md files of sweep-ab.sh, in order). Run from this directory:
#   python3 scripts/sweep-estimate.py [LATER_AB.md...]
import math, re, sys

TITLES = {"fp8 per-tensor": "e4m3-bf16-tt", "fp8 row-wise": "e4m3-bf16-rc",
          "fp8 block-wise": "e4m3-bf16-bb", "int8 to s32": "s8-s32--",
          "int8 to bf16, row and column scales": "s8-bf16-rc", "tf32": "f32-f32--"}
factor, later = {}, set()
for path in ["call6/ab.md"] + sys.argv[1:]:
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and re.match(r"[\d.]+$", cells[5]):
            factor[cells[0]] = factor.get(cells[0], 1.0) * float(cells[5])
            if path != "call6/ab.md":
                later.add(cells[0])
ratios, ours = {}, {}
problem = None
for line in open("call4/lowp-README.md"):
    if line.startswith("### "):
        problem = TITLES.get(line[4:].strip())
        continue
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if problem and len(cells) == 6 and re.match(r"\d+x\d+x\d+$", cells[0]):
        scale = factor.get(f"{problem}-{cells[0]}", 1.0)
        ratios.setdefault(problem, {})[cells[0]] = float(cells[4]) * scale
        ours.setdefault(problem, {})[cells[0]] = float(cells[2]) * scale
geomean = lambda v: math.exp(sum(map(math.log, v)) / len(v))
changes = later if sys.argv[1:] else factor
print("| problem | shapes | estimated geomean | changed | 8192 cubed | min |")
print("|---|---:|---:|---:|---:|---:|")
for title, problem in TITLES.items():
    r = ratios[problem]
    changed = sum(f"{problem}-{s}" in changes for s in r)
    low = min(r, key=r.get)
    print(f"| {title} | {len(r)} | {geomean(r.values()):.3f}x | {changed} | "
          f"{r.get('8192x8192x8192', float('nan')):.3f}x | {r[low]:.3f}x ({low}) |")
tensor, block = ours["e4m3-bf16-tt"], ours["e4m3-bf16-bb"]
print(f"\nBlock-wise over our per-tensor pick: "
      f"{geomean([block[s] / tensor[s] for s in block if s in tensor]):.3f}")
