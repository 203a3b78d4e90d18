#!/usr/bin/env bash
# The Python package on a GPU machine that has CUDA, PyTorch and no MLIR or
# package registry: builds gemm-runner and installs the package from source
# (its binding against the runtime), with a self-contained gemm-opt and the
# kernel library made on a machine with the compiler, then runs the package's
# whole pytest suite (GPU tests included) and times the Python call path
# beside torch.matmul. Results go to RESULTS.
#
#   bench/python-h200.sh RESULTS
#
# What it carries in the working tree (.device/, .whl/) is listed in
# bench/lib/install-package.sh, which installs the package.
set -uo pipefail
results=${1:?results directory}
mkdir -p "$results"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv | tee "$results/gpu.txt"
python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)' |
  tee -a "$results/gpu.txt"

source "$root/bench/lib/build-runner.sh"
build_gemm_runner "$results/build-runner.log" || exit 2
source "$root/bench/lib/install-package.sh"
install_gemm_package "$results/pip-install.log" || exit 2

status=0
export GEMM_CACHE_DIR=/tmp/gemm-cache
(cd python && GEMM_RUNNER=$runner PYTHONUNBUFFERED=1 timeout 420 python3 -m pytest -rs -v \
  -p no:cacheprovider --durations=10 --junitxml="$results/pytest.xml" tests) \
  > "$results/pytest.log" 2>&1 || status=1
tail -25 "$results/pytest.log"

for tool in memcheck racecheck; do
  (cd /tmp && PYTHONUNBUFFERED=1 timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 \
    python3 "$root/bench/python-sanitize.py") > "$results/sanitize-$tool.log" 2>&1 || status=1
  echo "compute-sanitizer $tool: $(tail -2 "$results/sanitize-$tool.log" | tr '\n' ' ')"
done

PYTHONUNBUFFERED=1 timeout 120 python3 bench/python-overhead.py --json "$results/overhead.json" \
  2>&1 | tee "$results/overhead.txt" || status=1
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
  --format=csv | tee -a "$results/gpu.txt"
exit $status
