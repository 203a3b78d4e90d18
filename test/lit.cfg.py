# The gemm compiler's lit suite. Three tiers (docs/Testing.md):
#   IR tests      always;
#   PTX tests     REQUIRES: ptxas   (ptxas from the CUDA toolkit was found);
#   GPU tests     REQUIRES: gpu     (gemm-runner found a usable NVIDIA GPU).
import glob
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "GEMM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gemm_obj_root, "test")

config.environment["FILECHECK_OPTS"] = "--enable-var-scope"
llvm_config.with_system_environment(["HOME", "PATH", "CUDA_VISIBLE_DEVICES"])
llvm_config.use_default_substitutions()
# FileCheck, not, count and friends by their plain names in RUN lines.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.gemm_tools_dir, append_path=True)

tool_dirs = [config.gemm_tools_dir, config.llvm_tools_dir]
tools = ["gemm-dispatch"]
if config.gemm_build_compiler:
    tools.append("gemm-opt")
    tools.append("gemm-sim")
if config.gemm_build_runtime:
    tools.append("gemm-runner")
llvm_config.add_tool_substitutions(tools, tool_dirs)
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
# The kernel library of the build (the gemm-kernels target).
config.substitutions.append(("%kernel_library", os.path.join(config.gemm_obj_root, "kernels")))
# MLIR's C runner utilities (printI64, ...) for tests that execute lowered
# integer code on the host with mlir-runner.
config.substitutions.append(("%mlir_c_runner_utils", os.path.join(
    config.llvm_lib_dir, "libmlir_c_runner_utils.so")))

if not config.gemm_build_compiler:
    config.excludes += ["Dialect", "Conversion", "Pipelines", "PTX",
                        "Simulator"]
if not config.gemm_build_runtime:
    config.excludes += ["Runtime", "GPU"]

def find_cuda_tool(name):
    """`name` on PATH, else in the CUDA toolkit's bin directory."""
    return shutil.which(name) or shutil.which(
        name, path=os.pathsep.join([config.cuda_toolkit_bin, "/usr/local/cuda/bin"]))


# PTX tier: ptxas from PATH or the CUDA toolkit.
ptxas = find_cuda_tool("ptxas")
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    lit_config.note("PTX tier on: ptxas at " + ptxas)
else:
    lit_config.note("PTX tier off: no ptxas found (install the CUDA toolkit)")

# SASS checks of the PTX tier: nvdisasm from PATH, the CUDA toolkit, or the
# pinned NVIDIA wheel in scripts/setup.sh's virtual environment.
nvdisasm = find_cuda_tool("nvdisasm")
if not nvdisasm:
    wheel_bins = sorted(glob.glob(os.path.join(
        config.gemm_src_root, "build-venv", "lib", "python3*", "site-packages",
        "nvidia", "cu*", "bin", "nvdisasm")))
    nvdisasm = wheel_bins[-1] if wheel_bins else None
if nvdisasm:
    config.available_features.add("nvdisasm")
    config.substitutions.append(("%nvdisasm", nvdisasm))
    lit_config.note("SASS checks on: nvdisasm at " + nvdisasm)
else:
    lit_config.note("SASS checks off: no nvdisasm found (run scripts/setup.sh)")

# python/: the interpreter of scripts/setup.sh's virtual environment (with the
# pinned packages), else the system one.
venv_python = os.path.join(config.gemm_src_root, "build-venv", "bin", "python")
python = venv_python if os.path.exists(venv_python) else shutil.which("python3")
config.substitutions.append(("%gemm-python", python))
config.environment["PYTHONPATH"] = os.path.join(config.gemm_src_root, "python")
if subprocess.run([python, "-c", "import matplotlib"],
                  capture_output=True).returncode == 0:
    config.available_features.add("matplotlib")

# The fuzzer (docs/Fuzzing.md): gemm-fuzz comes from a clang build of its
# own (scripts/fuzz.sh), named by GEMM_FUZZER (scripts/test.sh sets it).
fuzzer = os.environ.get("GEMM_FUZZER")
if fuzzer and os.access(fuzzer, os.X_OK):
    config.available_features.add("fuzzer")
    config.substitutions.append(("%gemm-fuzz", fuzzer))
    lit_config.note("fuzzer tests on: " + fuzzer)
else:
    lit_config.note("fuzzer tests off: set GEMM_FUZZER to a gemm-fuzz "
                    "(bash scripts/fuzz.sh build)")

# GPU tier: gemm-runner itself decides whether a usable GPU is there, so the
# feature means exactly "gemm-runner can launch kernels here".
runner = os.path.join(config.gemm_tools_dir, "gemm-runner")
gpu_arch = None
if config.gemm_build_runtime and os.path.exists(runner):
    try:
        probe = subprocess.run([runner, "--probe"], capture_output=True,
                               text=True, timeout=60)
        if probe.returncode == 0:
            gpu_arch = probe.stdout.strip().split()[-1]
    except (OSError, subprocess.TimeoutExpired):
        gpu_arch = None
if gpu_arch:
    config.available_features.add("gpu")
    config.available_features.add("gpu-" + gpu_arch)
    lit_config.note("GPU tier on: " + gpu_arch)
else:
    lit_config.note("GPU tier off: no usable GPU (gemm-runner --probe)")
