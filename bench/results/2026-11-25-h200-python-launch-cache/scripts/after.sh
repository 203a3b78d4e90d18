set -u
r=/tmp/r; mkdir -p $r $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
PYTHONUNBUFFERED=1 bash bench/python-h200.sh $r > $r/python-h200.out 2>&1; echo "python-h200 status $?"
grep -E "passed|failed|FAILED|sanitizer" $r/python-h200.out | tail -8; tail -9 $r/python-h200.out
export PYTHONPATH=/tmp/site GEMM_CACHE_DIR=/tmp/gemm-cache
timeout 100 python3 bench/probes/host-breakdown.py > $r/breakdown.txt 2>&1; grep -E "^##|gemm.matmul|reference|loaded.run" $r/breakdown.txt | head -24
timeout 60 python3 bench/probes/grouped-host-profile.py > $r/grouped-host.txt 2>&1; head -3 $r/grouped-host.txt
timeout 100 python3 bench/probes/int8-vs-torch.py > $r/int8-vs-torch.md 2>&1; cat $r/int8-vs-torch.md
python3 bench/grouped-torch.py --write-plan $r/grouped-issue-plan.txt --set issue
timeout 100 python3 bench/grouped-torch.py $r/grouped-issue-plan.txt --vs-gemm --iters 20 --warmup 3 > $r/grouped-issue.jsonl 2> $r/grouped-issue.err; echo "grouped rc $?"
python3 -c '
import json
for l in open("/tmp/r/grouped-issue.jsonl"):
    r=json.loads(l); print(r["name"], round(r["ours_over_torch"],3), round(r["ours_over_torch_idle"],3), round(r["ours"]["host_us"]), round(r["torch"]["host_us"]))'
nvidia-smi --query-gpu=clocks.sm,power.draw,power.limit --format=csv >> $r/gpu.txt
tar czf $OUT/r.tgz -C /tmp r
