#!/usr/bin/env bash
# Set up, build, and run every test (lit: IR, PTX and GPU tiers, and the
# GoogleTest unit tests; then the Python package's pytest suite). Ends with
# the line "N passed, N failed" (lit's and pytest's counts together;
# unsupported and skipped tests, with their reasons above, are reported on the
# line before) and exits non-zero on any failure.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh" || exit 1
build=${GEMM_BUILD_DIR:-$root/build}
# The fuzzer's own clang build (docs/Fuzzing.md); lit's test/Fuzz runs it.
bash "$root/scripts/fuzz.sh" build || exit 1
export GEMM_FUZZER=${GEMM_FUZZ_BUILD_DIR:-$root/build-fuzz}/bin/gemm-fuzz

log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | tail -1; }
passed=$(( $(count Passed || true) + 0 ))
failed=$(( $(count Failed || true) + $(count "Unresolved" || true) + $(count "Timed Out" || true) + 0 ))
skipped=$(( $(count Unsupported || true) + 0 ))

# The Python package, as installed by setup.sh; -rs prints why a test was
# skipped (no GPU, no PyTorch).
(cd "$root/python" && GEMM_RUNNER="$build/bin/gemm-runner" \
  "$root/build-venv/bin/python" -m pytest -rs -p no:cacheprovider tests) 2>&1 | tee "$log"
pytest_status=${PIPESTATUS[0]}
pycount() { grep -E '^=+ .* in [0-9.]+s' "$log" | tail -1 | grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+'; }
passed=$(( passed + $(pycount passed || true) + 0 ))
failed=$(( failed + $(pycount failed || true) + $(pycount error || true) + 0 ))
skipped=$(( skipped + $(pycount skipped || true) + 0 ))
[ "$pytest_status" -eq 0 ] || status=$pytest_status
rm -f "$log"
echo "$skipped unsupported or skipped (features this machine lacks, e.g. a GPU)"
echo "$passed passed, $failed failed"
if [ "$passed" -eq 0 ]; then
  echo "test: no test ran" >&2
  exit 1
fi
exit $status
