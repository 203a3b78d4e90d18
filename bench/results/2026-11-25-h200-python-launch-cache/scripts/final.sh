set -u
r=/tmp/r; rm -rf $r; mkdir -p $r $OUT
python3 -c 'import tarfile; tarfile.open(".device/kernels-full.tar.xz").extractall(".device")'
PYTHONUNBUFFERED=1 bash bench/python-h200.sh $r > $r/python-h200.out 2>&1; echo "python-h200 status $?"
grep -E "passed|failed|FAILED" $r/pytest.log | tail -3; grep "sanitizer" $r/python-h200.out; tail -9 $r/python-h200.out
export PYTHONPATH=/tmp/site GEMM_CACHE_DIR=/tmp/gemm-cache
timeout 100 python3 bench/probes/host-breakdown.py > $r/breakdown.txt 2>&1; grep -E "^##|gemm.matmul|reference|loaded.run" $r/breakdown.txt | head -12
tar czf $OUT/r.tgz -C /tmp r
