#!/usr/bin/env bash
# Installs what the project needs (Debian 12 packages, pinned Python
# packages) when it is missing, then configures and builds into build/.
# Idempotent: quiet and fast when everything is already there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMM_BUILD_DIR:-$root/build}

# clang-22 and libclang-rt-22-dev (libFuzzer, the sanitizers): the fuzzer's
# build (scripts/fuzz.sh), which the test command runs.
packages=(cmake ninja-build g++ python3 python3-venv
          libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
          nlohmann-json3-dev libgtest-dev libgmock-dev
          clang-22 libclang-rt-22-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" > /dev/null
fi

# Python packages for python/ and the benchmark plots, pinned.
venv=$root/build-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! cmp -s "$root/python/requirements.txt" "$venv/.requirements.txt" 2>/dev/null; then
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    -r "$root/python/requirements.txt"
  cp "$root/python/requirements.txt" "$venv/.requirements.txt"
fi

# The CUDA toolkit (nvcc, cuda.h, cuBLAS) is expected on every machine of the
# project; without it only the compiler is built.
runtime=ON
if ! command -v nvcc > /dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: no CUDA toolkit found (nvcc); building the compiler only," \
       "without gemm-runner. Install CUDA 13 to build the runtime."
  runtime=OFF
fi
export PATH=$PATH:/usr/local/cuda/bin

mkdir -p "$build"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DGEMM_BUILD_RUNTIME=$runtime > "$build/configure.log" 2>&1 ||
    { cat "$build/configure.log"; exit 1; }
fi
ninja -C "$build" > "$build/build.log" 2>&1 || { tail -50 "$build/build.log"; exit 1; }
echo "setup: built $build (log: $build/build.log)"

# The Python package (python/, `import gemm`): pip builds its binding against
# the runtime (incrementally, in build-python/) and ships this build's
# compiler and kernel library inside it.
if [ "$runtime" = ON ]; then
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "$root/python" \
    -C cmake.define.GEMM_PYTHON_COMPILER="$build/bin/gemm-opt" \
    -C cmake.define.GEMM_PYTHON_KERNEL_LIBRARY="$build/kernels" \
    > "$build/python-install.log" 2>&1 ||
    { tail -50 "$build/python-install.log"; exit 1; }
  echo "setup: installed the gemm Python package into $venv"
fi
