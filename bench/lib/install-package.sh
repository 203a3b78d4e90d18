# Sourced by the GPU-machine scripts (bench/python-h200.sh): installs the gemm
# Python package from source on a machine that has CUDA and PyTorch but no
# MLIR or package registry, with the compiler and kernel library carried in
# the working tree when they are there:
#   .device/gemm-opt-static.xz  a self-contained gemm-opt, xz-compressed
#                               (cmake -DGEMM_STATIC_GEMM_OPT=ON; docs/Python.md)
#   .device/kernels/            the gemm-kernels target's output (build/kernels)
#   .device/nlohmann-json3-dev_*.deb, when the machine lacks nlohmann-json
#   .whl/                       the pinned nanobind and scikit-build-core wheels
#
#   source "$root/bench/lib/install-package.sh"
#   install_gemm_package "$results/pip-install.log" || exit 2

install_gemm_package() {
  local log=${1:?install log path}
  local source_root
  source_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  python3 -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/site \
    "$source_root"/.whl/*.whl > "$log" 2>&1 || { tail -20 "$log"; return 2; }
  export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
  local defines=()
  if [ ! -f /usr/include/nlohmann/json.hpp ]; then
    local deb
    deb=$(ls "$source_root"/.device/nlohmann-json3-dev_*.deb 2>/dev/null | head -1)
    [ -n "$deb" ] || { echo "nlohmann-json3-dev .deb missing in .device/"; return 2; }
    mkdir -p /tmp/nlohmann && dpkg -x "$deb" /tmp/nlohmann
    defines+=(-C cmake.define.nlohmann_json_DIR=/tmp/nlohmann/usr/share/cmake/nlohmann_json)
  fi
  local compiler=/tmp/gemm-opt-static
  if [ -f "$source_root/.device/gemm-opt-static.xz" ]; then
    python3 -c 'import lzma, shutil, sys
with lzma.open(sys.argv[1]) as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)' "$source_root/.device/gemm-opt-static.xz" "$compiler"
    chmod +x "$compiler"
    "$compiler" --version >> "$log" 2>&1 ||
      { echo "the carried gemm-opt does not run here"; tail -5 "$log"; return 2; }
    defines+=(-C cmake.define.GEMM_PYTHON_COMPILER="$compiler")
  else
    echo "no .device/gemm-opt-static.xz: the package is installed without a compiler"
  fi
  [ -d "$source_root/.device/kernels" ] &&
    defines+=(-C cmake.define.GEMM_PYTHON_KERNEL_LIBRARY="$source_root/.device/kernels")
  # The image's default compiler (CXX=/opt/gcc/bin/g++) links its own
  # libstdc++ statically, and an extension built so crashed in its first
  # ostream use inside python3; the system compiler links the system one.
  rm -rf "$source_root/build-python"
  CC=/usr/bin/gcc CXX=/usr/bin/g++ python3 -m pip install --no-build-isolation --no-deps \
    "$source_root/python" "${defines[@]}" >> "$log" 2>&1 || { tail -40 "$log"; return 2; }
  echo "installed: $(cd /tmp && python3 -c 'import gemm; print(gemm.__file__)')"
}
