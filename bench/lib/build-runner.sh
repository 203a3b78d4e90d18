# Sourced by the GPU-machine scripts (bench/run-h200.sh, bench/suite.sh,
# bench/tune.sh): builds gemm-runner from source on a machine that has only
# CUDA (no MLIR, no package registry) and sets $runner to it.
#
#   source "$root/bench/lib/build-runner.sh"
#   build_gemm_runner "$results/build.log" || exit 2
#
# nlohmann-json comes from its Debian package, carried in .device/, when the
# machine lacks it. The build directory (/tmp/build-gpu) is kept, so a
# second script on the same machine only re-links what changed.
# GEMM_RUNNER=/path/to/gemm-runner skips the build.

build_gemm_runner() {
  local log=${1:?build log path}
  local source_root
  source_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  if [ -n "${GEMM_RUNNER:-}" ]; then
    runner=$GEMM_RUNNER
    echo "gemm-runner: $runner (GEMM_RUNNER)" > "$log"
    return 0
  fi
  local json_dir=() deb
  if [ ! -f /usr/include/nlohmann/json.hpp ]; then
    deb=$(ls "$source_root"/.device/nlohmann-json3-dev_*.deb 2>/dev/null | head -1)
    [ -n "$deb" ] || { echo "nlohmann-json3-dev .deb missing in .device/"; return 2; }
    mkdir -p /tmp/nlohmann && dpkg -x "$deb" /tmp/nlohmann
    json_dir=(-Dnlohmann_json_DIR=/tmp/nlohmann/usr/share/cmake/nlohmann_json)
  fi
  cmake -G Ninja -S "$source_root" -B /tmp/build-gpu -DGEMM_BUILD_COMPILER=OFF \
    -DCMAKE_BUILD_TYPE=Release "${json_dir[@]}" > "$log" 2>&1 &&
    ninja -C /tmp/build-gpu gemm-runner >> "$log" 2>&1 ||
    { tail -30 "$log"; return 2; }
  runner=/tmp/build-gpu/bin/gemm-runner
}
