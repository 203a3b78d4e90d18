import json, sys
sys.path.insert(0, "/work/main/python")
from gemm_bench import fit
import gemm
D="/work/main/bench/results/2026-11-25-h200-train2/call1/"
sets={"train2":fit._training(fit.read_measurements(D+"measurements-train2.json.xz")),
      "train":fit._training(fit.read_measurements(D+"measurements-train.json.xz"))}
old=json.load(open("/tmp/ga/model-before.json")); old.pop("grouped",None)
new=json.load(open("/tmp/ga/model-new.json"))
models={"old (fitted on train, earlier session)":gemm._core.DispatchModel.parse(json.dumps(old),"old"),
        "new (train+train2)":gemm._core.DispatchModel.parse(json.dumps(new),"new")}
for mname,m in models.items():
    for sname,rows in sets.items():
        print(mname, "on", sname, len(rows), fit.summary(fit.regrets(lambda shape, m=m: m, rows).values()))
