//===- Bundle.cpp - Kernel bundles on disk and on the GPU -----------------===//

#include "gemm/Runtime/Bundle.h"
#include "gemm/Runtime/Driver.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/Plan.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace gemm::runtime {
namespace {

namespace fs = std::filesystem;
using namespace gemm::bundle;

std::optional<std::string> readFile(const fs::path &path, std::string &why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = std::strerror(errno);
    return std::nullopt;
  }
  return std::string(std::istreambuf_iterator<char>(in), {});
}

[[noreturn]] void bundleError(const fs::path &path,
                              const std::vector<std::string> &errors) {
  std::string message;
  for (const std::string &error : errors)
    message += (message.empty() ? "" : "\n") + path.string() + ": " + error;
  throw Error(ErrorKind::Bundle, message);
}

std::string ccString(int major, int minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

} // namespace

KernelBundle KernelBundle::load(const fs::path &manifestPath) {
  std::string why;
  std::optional<std::string> text = readFile(manifestPath, why);
  if (!text)
    bundleError(manifestPath, {"cannot read the manifest: " + why});
  ParseResult parsed = parseManifestText(*text);
  if (!parsed.manifest)
    bundleError(manifestPath, parsed.errors);
  KernelBundle bundle;
  bundle.manifestPath = manifestPath;
  bundle.manifest = std::move(*parsed.manifest);
  if (std::vector<std::string> errors = bundle.manifest.validate();
      !errors.empty())
    bundleError(manifestPath, errors);
  try {
    checkRunnerSupports(bundle.manifest);
  } catch (const Error &error) {
    std::vector<std::string> lines;
    std::istringstream in(error.what());
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
    bundleError(manifestPath, lines);
  }

  fs::path dir = manifestPath.parent_path();
  std::vector<std::string> missing;
  auto locate = [&](const char *field, const std::string &name) {
    fs::path path = dir / name;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
      missing.push_back(std::string(field) + ": file " + path.string() +
                        " not found");
    return path;
  };
  bundle.ptxPath = locate("ptx", bundle.manifest.ptx);
  if (bundle.manifest.cubin)
    bundle.cubinPath = locate("cubin", *bundle.manifest.cubin);
  if (!missing.empty())
    bundleError(manifestPath, missing);
  return bundle;
}

void checkArch(const KernelManifest &manifest, const DeviceInfo &gpu) {
  auto [major, minor] = computeCapability(manifest.arch);
  if (gpu.ccMajor == major && gpu.ccMinor == minor)
    return;
  throw Error(
      ErrorKind::ArchMismatch,
      "arch mismatch: bundle " + manifest.name + " targets " +
          std::string(toString(manifest.arch)) +
          ", which runs only on compute capability " + ccString(major, minor) +
          " GPUs; GPU " + std::to_string(gpu.ordinal) + " (" + gpu.name +
          ") is compute capability " + ccString(gpu.ccMajor, gpu.ccMinor));
}

LoadedKernel LoadedKernel::load(const KernelBundle &bundle,
                                const Device &device) {
  const KernelManifest &manifest = bundle.manifest;
  const DeviceInfo &gpu = device.info();
  checkArch(manifest, gpu);
  const DriverApi &api = driver();

  LoadedKernel kernel;
  kernel.kernelName = manifest.kernel;
  std::string why;
  if (bundle.cubinPath) {
    std::optional<std::string> image = readFile(*bundle.cubinPath, why);
    if (!image)
      throw Error(ErrorKind::Bundle, bundle.cubinPath->string() +
                                         ": cannot read the cubin: " + why);
    CUresult result = api.cuModuleLoadDataEx(&kernel.module, image->data(), 0,
                                             nullptr, nullptr);
    if (result == CUDA_SUCCESS)
      kernel.sourceText = "cubin " + bundle.cubinPath->string();
    else
      kernel.noteText = "cubin " + bundle.cubinPath->string() +
                        " did not load (" + describeCuResult(result) +
                        "); using the PTX";
  }
  if (!kernel.module) {
    std::optional<std::string> ptx = readFile(bundle.ptxPath, why);
    if (!ptx)
      throw Error(ErrorKind::Bundle,
                  bundle.ptxPath.string() + ": cannot read the PTX: " + why);
    std::string errorLog(16384, '\0');
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {errorLog.data(),
                      reinterpret_cast<void *>(errorLog.size())};
    // The JIT needs a NUL-terminated image; std::string's data() is one.
    CUresult result = api.cuModuleLoadDataEx(&kernel.module, ptx->c_str(), 2,
                                             options, values);
    if (result != CUDA_SUCCESS) {
      errorLog.resize(std::strlen(errorLog.c_str()));
      throw Error(ErrorKind::Cuda, "JIT-compiling " + bundle.ptxPath.string() +
                                       ": " + describeCuResult(result) +
                                       (errorLog.empty() ? "" : "\n") +
                                       errorLog);
    }
    kernel.sourceText = "ptx " + bundle.ptxPath.string() + " (JIT)";
  }

  if (manifest.debugWaitsMs) {
    // The record lives in host memory the GPU writes through, so the host
    // can read it after the trap has made the context unusable.
    constexpr size_t kRecordWords = 10;
    void *host = nullptr;
    checkCu(api.cuMemHostAlloc(&host, kRecordWords * sizeof(uint32_t),
                               CU_MEMHOSTALLOC_DEVICEMAP |
                                   CU_MEMHOSTALLOC_PORTABLE),
            "allocating the debug-wait record");
    std::memset(host, 0, kRecordWords * sizeof(uint32_t));
    kernel.debugRecord = static_cast<volatile uint32_t *>(host);
    CUdeviceptr mapped = 0, global = 0;
    size_t globalBytes = 0;
    checkCu(api.cuMemHostGetDevicePointer(&mapped, host, 0),
            "mapping the debug-wait record");
    CUresult hasGlobal = api.cuModuleGetGlobal(
        &global, &globalBytes, kernel.module, "gemm_debug_wait_record");
    if (hasGlobal == CUDA_ERROR_NOT_FOUND)
      throw Error(ErrorKind::Bundle,
                  bundle.manifestPath.string() +
                      ": debug_waits_ms is set but the kernel has no "
                      "gemm_debug_wait_record global (recompile it with "
                      "debug-waits)");
    checkCu(hasGlobal, "finding the debug-wait record's global");
    checkCu(api.cuMemcpyHtoD(global, &mapped, sizeof(mapped)),
            "passing the debug-wait record to the kernel");
  }

  CUresult found = api.cuModuleGetFunction(&kernel.fn, kernel.module,
                                           manifest.kernel.c_str());
  if (found == CUDA_ERROR_NOT_FOUND)
    throw Error(ErrorKind::Bundle,
                bundle.manifestPath.string() + ": kernel: no entry '" +
                    manifest.kernel + "' in " + kernel.sourceText);
  checkCu(found, "finding kernel " + manifest.kernel);

  auto attribute = [&](CUfunction_attribute attr, const char *what) {
    int value = 0;
    checkCu(api.cuFuncGetAttribute(&value, attr, kernel.fn),
            std::string("reading the kernel's ") + what);
    return value;
  };
  kernel.registers = attribute(CU_FUNC_ATTRIBUTE_NUM_REGS, "register count");
  int maxThreads =
      attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "thread limit");
  uint64_t threads =
      uint64_t(manifest.block[0]) * manifest.block[1] * manifest.block[2];
  if (threads > uint64_t(maxThreads))
    throw Error(
        ErrorKind::Bundle,
        bundle.manifestPath.string() + ": block: " + std::to_string(threads) +
            " threads, but kernel " + manifest.kernel + " launches at most " +
            std::to_string(maxThreads) + " (its .maxntid or " +
            std::to_string(kernel.registers) + " registers/thread)");
  int staticSmem =
      attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "static shared memory");
  uint64_t smem = uint64_t(staticSmem) + manifest.dynamicSmemBytes;
  if (smem > uint64_t(gpu.maxSmemPerBlockOptin))
    throw Error(ErrorKind::Bundle,
                bundle.manifestPath.string() + ": dynamic_smem_bytes: " +
                    std::to_string(manifest.dynamicSmemBytes) + " + " +
                    std::to_string(staticSmem) +
                    " static = " + std::to_string(smem) +
                    " bytes of shared memory; " + gpu.name + " allows " +
                    std::to_string(gpu.maxSmemPerBlockOptin) + " per block");
  checkCu(api.cuFuncSetAttribute(
              kernel.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
              static_cast<int>(manifest.dynamicSmemBytes)),
          "raising the dynamic shared memory limit of " + manifest.kernel);
  if (manifest.clusterNonPortable)
    checkCu(
        api.cuFuncSetAttribute(
            kernel.fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
        "allowing non-portable cluster sizes for " + manifest.kernel);
  return kernel;
}

LoadedKernel::LoadedKernel(LoadedKernel &&other) noexcept
    : module(other.module), fn(other.fn),
      kernelName(std::move(other.kernelName)),
      sourceText(std::move(other.sourceText)),
      noteText(std::move(other.noteText)), registers(other.registers),
      debugRecord(other.debugRecord) {
  other.module = nullptr;
  other.debugRecord = nullptr;
}

LoadedKernel::~LoadedKernel() {
  if (module && gpuUsable())
    driver().cuModuleUnload(module);
  if (debugRecord && gpuUsable())
    driver().cuMemFreeHost(const_cast<uint32_t *>(debugRecord));
}

std::optional<std::string>
LoadedKernel::debugWaitReport(const KernelManifest &manifest) const {
  if (!debugRecord)
    return std::nullopt;
  return formatDebugWaitRecord(debugRecord, manifest);
}

std::optional<std::string>
formatDebugWaitRecord(const volatile uint32_t *record,
                      const KernelManifest &manifest) {
  if (record[9] != 1)
    return std::nullopt;
  uint32_t site = record[1];
  std::string what = site < manifest.debugWaitSites.size()
                         ? manifest.debugWaitSites[site]
                         : "wait site " + std::to_string(site);
  auto word = [&](int i) { return std::to_string(record[i]); };
  std::string where = "CTA (" + word(2) + ", " + word(3) + ", " + word(4) +
                      ") warp " + word(5) + ", " + what;
  if (what.find(": named barrier") != std::string::npos)
    return where + ": barrier id " + word(6) + ", " + word(8) +
           " thread(s) arrived, generation " + word(7);
  return where + ", stage " + word(6) + ", expected phase parity " + word(7) +
         ", iteration " + word(8);
}

} // namespace gemm::runtime
