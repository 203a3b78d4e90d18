//===- GemmModule.cpp - gemm._core: the dispatcher and runtime in Python --===//
//
// The Python package's view of the C++ libraries, nothing more: the
// dispatcher (lib/Dispatch) and the runtime's bundle loading, launch planning
// and launch (lib/Runtime). Tensors never cross this boundary: the Python
// side passes device addresses, leading dimensions and a stream handle, so
// any framework's tensors work. C++ errors become the exception classes
// defined here (gemm.GemmError and its subclasses), each with the runtime's
// message, which names the problem and the fix.
//
//===----------------------------------------------------------------------===//

#include "gemm/Bundle/StreamK.h"
#include "gemm/Dispatch/Dispatcher.h"
#include "gemm/Dispatch/Staging.h"
#include "gemm/Runtime/Bundle.h"
#include "gemm/Runtime/Device.h"
#include "gemm/Runtime/Driver.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/GroupTable.h"
#include "gemm/Runtime/Launch.h"
#include "gemm/Runtime/Plan.h"

#include <cuda_runtime_api.h>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <memory>
#include <mutex>

namespace nb = nanobind;
using namespace gemm;
using dispatch::KernelConfig;
using runtime::ErrorKind;

namespace {

/// The Python exception classes, created at import (see NB_MODULE).
struct Exceptions {
  PyObject *base = nullptr, *usage = nullptr, *bundle = nullptr,
           *noDevice = nullptr, *archMismatch = nullptr, *cuda = nullptr,
           *hang = nullptr, *dispatch = nullptr;
} exceptions;

PyObject *exceptionFor(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::Usage:
    return exceptions.usage;
  case ErrorKind::Bundle:
    return exceptions.bundle;
  case ErrorKind::NoDevice:
    return exceptions.noDevice;
  case ErrorKind::ArchMismatch:
    return exceptions.archMismatch;
  case ErrorKind::Cuda:
    return exceptions.cuda;
  case ErrorKind::Hang:
    return exceptions.hang;
  }
  return exceptions.base;
}

[[noreturn]] void usageError(const std::string &message) {
  throw runtime::Error(ErrorKind::Usage, message);
}

bundle::DType parseType(const std::string &text, const char *what) {
  auto type = bundle::parseEnum<bundle::DType>(text);
  if (!type)
    usageError(std::string(what) + " '" + text + "': expected one of " +
               bundle::spellingList<bundle::DType>());
  return *type;
}

dispatch::QuantConfig parseQuant(const std::string &text) {
  dispatch::QuantConfig quant;
  if (text.empty())
    return quant;
  std::string error;
  auto parsed = dispatch::QuantConfig::parse(text, error);
  if (!parsed)
    usageError("quant: " + error);
  return *parsed;
}

/// "row,col,row" (A, B, C) to layouts; a UsageError naming the text.
bundle::TensorLayouts parseLayouts(const std::string &text) {
  std::string error;
  auto layouts = dispatch::parseLayoutTriple(text, error);
  if (!layouts)
    usageError("layouts " + error);
  return *layouts;
}

dispatch::Problem makeProblem(uint64_t m, uint64_t n, uint64_t k,
                              const std::string &inType,
                              const std::optional<std::string> &outType,
                              const std::optional<std::string> &bType = {},
                              const std::string &quant = "",
                              const std::string &layouts = "row,col,row") {
  if (m == 0 || n == 0 || k == 0)
    usageError("M, N and K must be at least 1, got " + std::to_string(m) + "x" +
               std::to_string(n) + "x" + std::to_string(k));
  dispatch::Problem problem;
  problem.m = m;
  problem.n = n;
  problem.k = k;
  problem.inType = parseType(inType, "input dtype");
  if (outType)
    problem.outType = parseType(*outType, "output dtype");
  if (bType && *bType != inType)
    problem.inTypeB = parseType(*bType, "B dtype");
  problem.quant = parseQuant(quant);
  problem.layouts = parseLayouts(layouts);
  return problem;
}

using Staged = std::tuple<bool, bool, bool>;

/// What the runtime would stage for a TMA kernel (gemm/Dispatch/Staging.h):
/// the caller's leading dimensions (of the stored rows) and addresses, or
/// packed rows in the problem's layouts at aligned addresses when `lds` is
/// null.
Staged tmaStaging(const dispatch::Problem &problem,
                  const std::optional<std::array<uint64_t, 3>> &lds = {},
                  const std::array<uint64_t, 3> &addresses = {0, 0, 0}) {
  dispatch::StagingShape shape{problem.m, problem.n, problem.k,
                               std::max<uint64_t>(problem.batch, 1)};
  std::array<bool, 3> staged;
  if (!lds) {
    staged = dispatch::packedStaging(shape, problem.inType, problem.outType,
                                     problem.layouts);
  } else {
    const bundle::DType types[3] = {
        problem.inType, problem.inTypeB.value_or(problem.inType),
        problem.outType.value_or(
            dispatch::KernelConfig::defaultOutput(problem.inType))};
    for (size_t i = 0; i < 3; ++i)
      staged[i] = dispatch::stagedForTma(
          static_cast<bundle::Tensor>(i), shape, types[i], (*lds)[i],
          addresses[i], dispatch::RealignPolicy::Auto, problem.layouts);
  }
  return {staged[0], staged[1], staged[2]};
}

/// `problem` with the staging flags given, else those of packed rows.
dispatch::Problem withStaging(dispatch::Problem problem,
                              const std::optional<Staged> &staged) {
  Staged flags = staged ? *staged : tmaStaging(problem);
  problem.staged = {std::get<0>(flags), std::get<1>(flags), std::get<2>(flags)};
  return problem;
}

dispatch::Target makeTarget(const std::string &arch, uint32_t smCount) {
  auto parsed = bundle::parseEnum<bundle::Arch>(arch);
  if (!parsed)
    usageError("arch '" + arch + "': expected one of " +
               bundle::spellingList<bundle::Arch>());
  return {*parsed, smCount};
}

/// Each GPU is opened once per process and stays open: its primary context
/// stays retained while modules loaded into it are in use.
const runtime::Device &openDevice(int ordinal) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<runtime::Device>> devices;
  std::lock_guard<std::mutex> lock(mutex);
  auto &slot = devices[ordinal];
  if (!slot) {
    // Device::open selects the GPU in the CUDA runtime too; the caller's
    // framework keeps its own current device.
    int previous = -1;
    bool hadDevice = cudaGetDevice(&previous) == cudaSuccess;
    cudaGetLastError();
    slot = std::make_unique<runtime::Device>(runtime::Device::open(ordinal));
    if (hadDevice && previous != ordinal)
      cudaSetDevice(previous);
  }
  return *slot;
}

/// Makes the device's primary context current for a scope and puts the
/// caller's back afterwards (the caller may be on another GPU).
class ContextScope {
public:
  explicit ContextScope(const runtime::Device &device) {
    const runtime::DriverApi &api = runtime::driver();
    runtime::checkCu(api.cuCtxGetCurrent(&previous),
                     "reading the current CUDA context");
    if (previous != device.primaryContext())
      runtime::checkCu(api.cuCtxSetCurrent(device.primaryContext()),
                       "making the GPU's context current");
    else
      previous = nullptr;
  }
  ~ContextScope() {
    if (previous)
      runtime::driver().cuCtxSetCurrent(previous);
  }

private:
  CUcontext previous = nullptr;
};

/// Elements between the batch entries of A, B, C (None: packed; 0 for A
/// or B: one matrix for every entry).
using BatchStrides =
    std::tuple<std::optional<uint64_t>, std::optional<uint64_t>,
               std::optional<uint64_t>>;

/// A bundle read from disk, checked as gemm-runner checks it. No GPU.
struct Bundle {
  runtime::KernelBundle bundle;

  static Bundle load(const std::string &path) {
    Bundle b{runtime::KernelBundle::load(path)};
    runtime::checkRunnerSupports(b.bundle.manifest);
    return b;
  }
  const bundle::KernelManifest &manifest() const { return bundle.manifest; }

  runtime::LaunchPlan
  plan(uint64_t m, uint64_t n, uint64_t k, std::optional<uint64_t> lda,
       std::optional<uint64_t> ldb, std::optional<uint64_t> ldc,
       uint32_t capacity, uint64_t batch = 1,
       const BatchStrides &batchStrides = {}, uint64_t groups = 0) const {
    runtime::Problem problem;
    problem.m = m;
    problem.n = n;
    problem.k = k;
    problem.batch = batch;
    problem.groups = groups;
    runtime::PlanOptions options;
    options.unaligned = runtime::UnalignedPolicy::Reject;
    options.persistentCtaCapacity = capacity;
    options.leadingDims = {lda, ldb, ldc};
    options.batchStrides = {std::get<0>(batchStrides),
                            std::get<1>(batchStrides),
                            std::get<2>(batchStrides)};
    return runtime::planLaunch(bundle.manifest, problem, options);
  }
};

/// A bundle loaded onto one GPU, ready to launch on any stream of it.
class Kernel {
public:
  Kernel(const Bundle &source, int ordinal)
      : bundle(source), device(&openDevice(ordinal)) {
    ContextScope scope(*device);
    loaded.emplace(runtime::LoadedKernel::load(bundle.bundle, *device));
    capacity = runtime::persistentCtaCapacity(*loaded, bundle.manifest(),
                                              device->info());
    for (const bundle::Param &param : bundle.manifest().params) {
      hasWorkspaces |= param.kind == bundle::ParamKind::Workspace;
      hasScales |= param.kind == bundle::ParamKind::Scale ||
                   param.kind == bundle::ParamKind::Amax;
    }
  }

  runtime::LaunchPlan plan(uint64_t m, uint64_t n, uint64_t k,
                           std::optional<uint64_t> lda,
                           std::optional<uint64_t> ldb,
                           std::optional<uint64_t> ldc, uint64_t batch = 1,
                           const BatchStrides &batchStrides = {},
                           uint64_t groups = 0) const {
    return bundle.plan(m, n, k, lda, ldb, ldc, capacity, batch, batchStrides,
                       groups);
  }

  /// Plans and launches a grouped kernel on `stream`: the prep kernel that
  /// writes the group table at `table` (the plan's group_table_bytes) from
  /// the G + 1 offsets at `offsets`, or the G ends of torch's `offs` when
  /// `offsetsEnds` (int64 when `offsets64`, else int32), then the kernel over
  /// the `m` rows of A and C; B's G entries are `bStride` elements apart. No
  /// host synchronisation.
  void runGrouped(uint64_t m, uint64_t n, uint64_t k, uint64_t groups,
                  uintptr_t a, uint64_t lda, uintptr_t b, uint64_t ldb,
                  uint64_t bStride, uintptr_t c, uint64_t ldc,
                  uintptr_t offsets, bool offsets64, bool offsetsEnds,
                  uintptr_t table, uint64_t tableBytes,
                  uintptr_t stream) const {
    runtime::LaunchPlan launchPlan =
        plan(m, n, k, lda, ldb, ldc, 1, {std::nullopt, bStride, std::nullopt},
             groups);
    if (tableBytes < launchPlan.groupTableBytes)
      usageError(bundle.manifest().name + " needs a group table of " +
                 std::to_string(launchPlan.groupTableBytes) + " bytes, got " +
                 std::to_string(tableBytes));
    ContextScope scope(*device);
    std::vector<CUtensorMap> maps =
        runtime::encodeTensorMaps(launchPlan, a, b, c);
    runtime::launchGrouped(
        *loaded, launchPlan, maps, {a, b, c},
        runtime::DeviceOffsets{offsets, offsets64, offsetsEnds}, table,
        reinterpret_cast<CUstream>(stream));
  }

  /// Plans and launches C = A * B^T on `stream` with the caller's memory,
  /// each matrix in the bundle's layout with rows lda (ldb, ldc) apart, and
  /// for a batched kernel `batch` entries batch_strides apart. TMA kernels
  /// need rows and addresses TMA can read (the caller stages the others);
  /// kernels that take pointers read them as they are.
  void run(uint64_t m, uint64_t n, uint64_t k, uintptr_t a, uint64_t lda,
           uintptr_t b, uint64_t ldb, uintptr_t c, uint64_t ldc,
           const std::vector<uintptr_t> &workspaces, uintptr_t stream,
           uint64_t batch, const BatchStrides &batchStrides,
           const std::vector<uintptr_t> &scales) const {
    runtime::LaunchPlan launchPlan =
        plan(m, n, k, lda, ldb, ldc, batch, batchStrides);
    if (workspaces.size() != launchPlan.workspaces.size())
      usageError(bundle.manifest().name + " takes " +
                 std::to_string(launchPlan.workspaces.size()) +
                 " workspaces, got " + std::to_string(workspaces.size()));
    if (scales.size() != launchPlan.scales.size())
      usageError(bundle.manifest().name + " takes " +
                 std::to_string(launchPlan.scales.size()) +
                 " scale/amax buffers, got " + std::to_string(scales.size()));
    ContextScope scope(*device);
    std::vector<CUtensorMap> maps =
        runtime::encodeTensorMaps(launchPlan, a, b, c);
    std::vector<CUdeviceptr> spaces(workspaces.begin(), workspaces.end());
    std::vector<CUdeviceptr> scaleBuffers(scales.begin(), scales.end());
    runtime::launchKernel(*loaded, launchPlan, maps, spaces, {a, b, c},
                          reinterpret_cast<CUstream>(stream), scaleBuffers);
  }

  Bundle bundle;
  const runtime::Device *device;
  std::optional<runtime::LoadedKernel> loaded;
  uint32_t capacity = 0;
  bool hasWorkspaces = false;
  bool hasScales = false;
};

nb::dict estimateDict(const dispatch::Estimate &e) {
  nb::dict d;
  d["seconds"] = e.seconds;
  d["physics_s"] = e.physicsSeconds;
  d["compute_s"] = e.computeSeconds;
  d["memory_s"] = e.memorySeconds;
  d["correction"] = e.correction;
  d["evidence"] = e.evidence;
  d["staging_s"] = e.stagingSeconds;
  d["tiles"] = e.tiles;
  d["waves"] = e.waves;
  d["memory_bound"] = e.memoryBound();
  return d;
}

std::string typeName(bundle::DType type) {
  return std::string(bundle::toString(type));
}

/// The problem of a configuration's types and scales.
dispatch::Problem configProblem(const KernelConfig &config, uint64_t m,
                                uint64_t n, uint64_t k) {
  dispatch::Problem problem =
      makeProblem(m, n, k, typeName(config.inType), typeName(config.cType()),
                  typeName(config.bType()), config.quant.spelling());
  problem.layouts = config.layouts;
  return problem;
}

} // namespace

NB_MODULE(_core, m) {
  m.doc() = "gemm's C++ dispatcher and runtime (use the gemm package)";
  // The package keeps loaded kernels for the life of the process (module
  // dictionaries); nanobind would list them as leaks at interpreter exit.
  nb::set_leak_warnings(false);

  auto make = [&](const char *name, PyObject *base, const char *doc) {
    std::string qualified = std::string("gemm.") + name;
    PyObject *type =
        PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
    m.attr(name) = nb::handle(type);
    return type;
  };
  exceptions.base = make("GemmError", PyExc_RuntimeError,
                         "Base class of every error of the gemm package.");
  PyObject *usageBases = PyTuple_Pack(2, exceptions.base, PyExc_ValueError);
  exceptions.usage = make("UsageError", usageBases,
                          "A problem, tensor or configuration the kernel "
                          "cannot take.");
  Py_DECREF(usageBases);
  exceptions.bundle = make("BundleError", exceptions.base,
                           "A missing, unreadable or invalid kernel bundle.");
  exceptions.noDevice =
      make("NoDeviceError", exceptions.base, "No NVIDIA driver or GPU.");
  exceptions.archMismatch = make("ArchMismatchError", exceptions.base,
                                 "The kernel's arch does not run on this GPU.");
  exceptions.cuda =
      make("CudaError", exceptions.base, "A CUDA driver or launch failure.");
  exceptions.hang =
      make("HangError", exceptions.base, "A kernel that did not finish.");
  exceptions.dispatch = make("DispatchError", exceptions.base,
                             "No kernel for the problem, or unreadable "
                             "tuning data.");
  nb::register_exception_translator([](const std::exception_ptr &p, void *) {
    try {
      std::rethrow_exception(p);
    } catch (const runtime::Error &e) {
      PyErr_SetString(exceptionFor(e.kind()), e.what());
    } catch (const dispatch::DispatchError &e) {
      PyErr_SetString(exceptions.dispatch, e.what());
    }
  });

  // ---- configurations and the dispatcher --------------------------------
  nb::class_<KernelConfig>(m, "KernelConfig",
                           "One SM90 kernel configuration; see "
                           "include/gemm/Dispatch/KernelConfig.h")
      .def(
          "__init__",
          [](KernelConfig *self, const std::string &name,
             const std::string &defaultType) {
            std::string error;
            auto config = KernelConfig::parse(
                name, error, parseType(defaultType, "input dtype"));
            if (!config)
              usageError(error);
            new (self) KernelConfig(*config);
          },
          nb::arg("name"), nb::arg("dtype") = "bf16",
          "From a name or key, e.g. sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0")
      .def_static(
          "make",
          [](const std::string &inType,
             const std::optional<std::string> &outType,
             std::tuple<uint32_t, uint32_t, uint32_t> tile,
             std::pair<uint32_t, uint32_t> cluster, const std::string &schedule,
             const std::string &raster, uint32_t swizzle, uint32_t stages,
             uint32_t splits, bool streamK, const std::string &layouts,
             bool batched, const std::optional<std::string> &bType,
             const std::string &quant, bool grouped) {
            KernelConfig c;
            c.layouts = parseLayouts(layouts);
            c.batched = batched;
            c.grouped = grouped;
            c.inType = parseType(inType, "input dtype");
            if (outType && (*outType != inType ||
                            parseType(*outType, "output dtype") !=
                                KernelConfig::defaultOutput(c.inType)))
              c.outType = parseType(*outType, "output dtype");
            if (bType && *bType != inType)
              c.inTypeB = parseType(*bType, "B dtype");
            c.quant = parseQuant(quant);
            std::tie(c.tileM, c.tileN, c.tileK) = tile;
            std::tie(c.clusterM, c.clusterN) = cluster;
            if (schedule != "cooperative" && schedule != "pingpong" &&
                schedule != "direct")
              usageError("schedule '" + schedule +
                         "': expected cooperative, pingpong or direct");
            c.schedule = schedule == "cooperative"
                             ? dispatch::Schedule::Cooperative
                         : schedule == "pingpong" ? dispatch::Schedule::Pingpong
                                                  : dispatch::Schedule::Direct;
            if (raster != "along_m" && raster != "along_n")
              usageError("raster '" + raster +
                         "': expected along_m or along_n");
            c.raster = raster == "along_m" ? dispatch::Raster::AlongM
                                           : dispatch::Raster::AlongN;
            c.swizzle = swizzle;
            c.stages = stages;
            c.splits = splits;
            c.streamK = streamK;
            return c;
          },
          nb::arg("dtype"), nb::arg("out_dtype"), nb::arg("tile"),
          nb::arg("cluster"), nb::arg("schedule"), nb::arg("raster"),
          nb::arg("swizzle"), nb::arg("stages"), nb::arg("splits"),
          nb::arg("stream_k"), nb::arg("layouts") = "row,col,row",
          nb::arg("batched") = false, nb::arg("b_dtype") = nb::none(),
          nb::arg("quant") = "", nb::arg("grouped") = false,
          "From fields; the compiler checks them when it compiles.")
      .def_prop_ro("name", &KernelConfig::name)
      .def_prop_ro("key", &KernelConfig::key)
      .def_prop_ro("mlir", &KernelConfig::mlir)
      .def_prop_ro("in_dtype",
                   [](const KernelConfig &c) { return typeName(c.inType); })
      .def_prop_ro("out_dtype",
                   [](const KernelConfig &c) { return typeName(c.cType()); })
      .def_prop_ro("b_dtype",
                   [](const KernelConfig &c) { return typeName(c.bType()); })
      .def_prop_ro("quant",
                   [](const KernelConfig &c) { return c.quant.spelling(); })
      .def(
          "buildable",
          [](const KernelConfig &c) {
            std::string why;
            bool ok = c.buildable(&why);
            return std::make_pair(ok, why);
          },
          "(whether the compiler builds it, why not)")
      .def_prop_ro("tile",
                   [](const KernelConfig &c) {
                     return std::make_tuple(c.tileM, c.tileN, c.tileK);
                   })
      .def_prop_ro("cluster",
                   [](const KernelConfig &c) {
                     return std::make_pair(c.clusterM, c.clusterN);
                   })
      .def_prop_ro("schedule",
                   [](const KernelConfig &c) {
                     return std::string(dispatch::toString(c.schedule));
                   })
      .def_prop_ro("raster",
                   [](const KernelConfig &c) {
                     return std::string(dispatch::toString(c.raster));
                   })
      .def_ro("swizzle", &KernelConfig::swizzle)
      .def_ro("stages", &KernelConfig::stages)
      .def_ro("splits", &KernelConfig::splits)
      .def_ro("stream_k", &KernelConfig::streamK)
      .def_prop_ro("layouts",
                   [](const KernelConfig &c) {
                     return dispatch::layoutTriple(c.layouts);
                   })
      .def_ro("batched", &KernelConfig::batched)
      .def_ro("grouped", &KernelConfig::grouped)
      .def("derived_stages", &KernelConfig::derivedStages)
      .def("__eq__",
           [](const KernelConfig &a, const KernelConfig &b) { return a == b; })
      .def("__hash__",
           [](const KernelConfig &c) {
             return nb::hash(nb::str(c.name().c_str()));
           })
      .def("__repr__", [](const KernelConfig &c) {
        return "KernelConfig('" + c.name() + "')";
      });

  nb::class_<dispatch::DispatchModel>(m, "DispatchModel")
      .def_static("load",
                  [](const std::string &path) {
                    return dispatch::DispatchModel::load(path);
                  })
      .def_static("parse",
                  [](const std::string &text, const std::string &source) {
                    return dispatch::DispatchModel::parse(text, source);
                  })
      .def_prop_ro("source", &dispatch::DispatchModel::source)
      .def_prop_ro("gpu_name", &dispatch::DispatchModel::gpuName)
      .def_prop_ro("candidates", &dispatch::DispatchModel::candidates)
      .def_prop_ro("training_shapes", &dispatch::DispatchModel::trainingShapes)
      .def(
          "estimate",
          [](const dispatch::DispatchModel &model, const KernelConfig &config,
             uint64_t mm, uint64_t n, uint64_t k, uint32_t smCount,
             const std::optional<Staged> &staged, uint64_t groups) {
            dispatch::Problem problem = configProblem(config, mm, n, k);
            problem.groups = groups;
            if (!groups)
              problem = withStaging(problem, staged);
            return estimateDict(model.estimate(config, problem,
                                               {bundle::Arch::Sm90a, smCount}));
          },
          nb::arg("config"), nb::arg("m"), nb::arg("n"), nb::arg("k"),
          nb::arg("sm_count") = 132, nb::arg("staged") = nb::none(),
          nb::arg("groups") = 0,
          "The model's estimate (physics x learned correction); `staged`: "
          "which of A, B, C a TMA kernel would get staged (default: packed "
          "rows, gemm::dispatch::stagedForTma).");

  nb::class_<dispatch::Selection>(m, "Selection")
      .def_ro("config", &dispatch::Selection::config)
      .def_prop_ro("source",
                   [](const dispatch::Selection &s) {
                     return std::string(dispatch::toString(s.source));
                   })
      .def_prop_ro(
          "estimate",
          [](const dispatch::Selection &s) { return estimateDict(s.estimate); })
      .def_ro("reason", &dispatch::Selection::reason)
      .def_ro("transposed", &dispatch::Selection::transposed)
      .def("__repr__", [](const dispatch::Selection &s) {
        return "Selection(" + s.config.name() + ", " +
               std::string(dispatch::toString(s.source)) + ")";
      });

  m.def(
      "select",
      [](uint64_t mm, uint64_t n, uint64_t k, const std::string &inType,
         const std::optional<std::string> &outType,
         const dispatch::DispatchModel &model, const std::string &arch,
         uint32_t smCount,
         const std::optional<std::vector<KernelConfig>> &available,
         const std::string &layouts, uint64_t batch,
         const std::optional<std::string> &bType, const std::string &quant,
         const std::optional<Staged> &staged, uint64_t groups) {
        dispatch::Problem problem =
            makeProblem(mm, n, k, inType, outType, bType, quant, layouts);
        if (batch == 0)
          usageError("batch must be at least 1, got 0");
        problem.batch = batch;
        problem.groups = groups;
        if (groups)
          return dispatch::select(problem, model, makeTarget(arch, smCount),
                                  available ? &*available : nullptr);
        return dispatch::select(withStaging(problem, staged), model,
                                makeTarget(arch, smCount),
                                available ? &*available : nullptr);
      },
      nb::arg("m"), nb::arg("n"), nb::arg("k"), nb::arg("dtype") = "bf16",
      nb::arg("out_dtype") = nb::none(), nb::arg("model"),
      nb::arg("arch") = "sm_90a", nb::arg("sm_count") = 132,
      nb::arg("available") = nb::none(), nb::arg("layouts") = "row,col,row",
      nb::arg("batch") = 1, nb::arg("b_dtype") = nb::none(),
      nb::arg("quant") = "", nb::arg("staged") = nb::none(),
      nb::arg("groups") = 0,
      "The dispatcher's choice for a problem (see "
      "include/gemm/Dispatch/Dispatcher.h); `staged`: which of A, B, C a "
      "TMA kernel would get staged (tma_staging; default: packed rows); "
      "`groups`: a grouped (MoE) problem of that many groups whose rows sum "
      "to m (nothing staged).");
  m.def(
      "tma_staging",
      [](uint64_t mm, uint64_t n, uint64_t k, const std::string &inType,
         const std::optional<std::string> &outType,
         const std::optional<std::array<uint64_t, 3>> &lds,
         const std::array<uint64_t, 3> &addresses, const std::string &layouts) {
        return tmaStaging(
            makeProblem(mm, n, k, inType, outType, {}, "", layouts), lds,
            addresses);
      },
      nb::arg("m"), nb::arg("n"), nb::arg("k"), nb::arg("dtype") = "bf16",
      nb::arg("out_dtype") = nb::none(), nb::arg("lds") = nb::none(),
      nb::arg("addresses") = std::array<uint64_t, 3>{0, 0, 0},
      nb::arg("layouts") = "row,col,row",
      "(a, b, c): whether the runtime stages each matrix around a TMA kernel "
      "(copies it through aligned scratch) for these leading dimensions of "
      "their stored rows and device addresses (default: packed rows of "
      "`layouts`, aligned): "
      "gemm::dispatch::stagedForTma, the rule of gemm-runner's plans and of "
      "the package's copies. Kernels that take pointers never stage.");
  m.def(
      "stream_k_plan",
      [](uint32_t units, uint32_t ctas, uint32_t kBlocks) {
        if (ctas == 0)
          throw nb::value_error("stream_k_plan: ctas must be at least 1");
        bundle::StreamKPlan plan = bundle::streamKPlan(
            units, ctas, kBlocks, bundle::StreamKMaxWorkersPerUnit);
        return std::make_tuple(plan.dpUnits, plan.workers, plan.workersPerUnit);
      },
      nb::arg("units"), nb::arg("ctas"), nb::arg("k_blocks"),
      "(dp_units, workers, workers_per_unit) of a stream-K kernel's plan for "
      "`units` tile units (cluster units) on `ctas` CTAs (clusters) of "
      "`k_blocks` k-blocks each (gemm::bundle::streamKPlan, what "
      "gemm.sched.stream_k_plan computes on the GPU).");
  m.def(
      "tma_stores_whole_chunks",
      [](const std::string &dtype, uint64_t lineElements) {
        return dispatch::tmaStoresWholeChunks(parseType(dtype, "dtype"),
                                              lineElements);
      },
      nb::arg("dtype"), nb::arg("line_elements"),
      "Whether TMA stores into lines of that many elements write only them "
      "(gemm::dispatch::tmaStoresWholeChunks): a store writes the 16-byte "
      "chunk holding a line's last element whole, so an output whose lines "
      "are not 16-byte multiples is written through aligned scratch.");
  m.attr("STAGING_ROW_ALIGNMENT") = runtime::StagingRowAlignmentBytes;
  m.def(
      "check_problem",
      [](uint64_t mm, uint64_t n, uint64_t k, const std::string &inType,
         const std::optional<std::string> &outType,
         const std::optional<std::string> &bType, const std::string &quant,
         const std::string &layouts, uint64_t batch, uint64_t groups) {
        dispatch::Problem problem =
            makeProblem(mm, n, k, inType, outType, bType, quant, layouts);
        problem.batch = batch;
        problem.groups = groups;
        dispatch::checkProblem(problem);
      },
      nb::arg("m"), nb::arg("n"), nb::arg("k"), nb::arg("dtype"),
      nb::arg("out_dtype") = nb::none(), nb::arg("b_dtype") = nb::none(),
      nb::arg("quant") = "", nb::arg("layouts") = "row,col,row",
      nb::arg("batch") = 1, nb::arg("groups") = 0,
      "DispatchError when no SM90 kernel takes these types, scales, layouts "
      "and batch.");
  m.def(
      "check_group_offsets",
      [](const std::vector<int64_t> &offsets, uint64_t rows) {
        return runtime::grouped::checkGroupOffsets(offsets, rows);
      },
      nb::arg("offsets"), nb::arg("rows"),
      "The problems of G + 1 group offsets over `rows` rows of A "
      "(gemm::runtime::grouped::checkGroupOffsets: decreasing, negative or "
      "past the end), one message each naming the group and the values; "
      "empty when they are fine.");
  m.def(
      "realign_pays",
      [](const std::string &tensor, uint64_t mm, uint64_t n, uint64_t k,
         uint64_t ldBytes) {
        auto parsed = bundle::parseEnum<bundle::Tensor>(tensor);
        if (!parsed)
          usageError("tensor '" + tensor + "': expected a, b or c");
        runtime::Problem problem;
        problem.m = mm;
        problem.n = n;
        problem.k = k;
        return runtime::realignPays(*parsed, problem, ldBytes);
      },
      nb::arg("tensor"), nb::arg("m"), nb::arg("n"), nb::arg("k"),
      nb::arg("ld_bytes"),
      "Whether operand `tensor` with rows ld_bytes apart is worth copying "
      "into 128-byte rows (gemm::runtime::realignPays).");
  m.def(
      "is_applicable",
      [](const KernelConfig &config, uint64_t mm, uint64_t n, uint64_t k,
         uint32_t smCount) {
        return dispatch::isApplicable(config, configProblem(config, mm, n, k),
                                      {bundle::Arch::Sm90a, smCount});
      },
      nb::arg("config"), nb::arg("m"), nb::arg("n"), nb::arg("k"),
      nb::arg("sm_count") = 132,
      "Whether the model speaks for the configuration on the problem "
      "(include/gemm/Dispatch/Model.h): what the fit measures.");
  m.def(
      "physics_estimates",
      [](const std::map<std::string, double> &hardware,
         const std::map<std::string, double> &tiles,
         const std::vector<KernelConfig> &configs,
         const std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> &shapes,
         uint32_t smCount, const std::optional<std::vector<Staged>> &staged) {
        if (configs.size() != shapes.size())
          usageError("configs and shapes differ in length");
        if (staged && staged->size() != shapes.size())
          usageError("staged and shapes differ in length");
        dispatch::HardwareParams params =
            dispatch::hardwareParams(hardware, tiles, "physics_estimates");
        std::vector<double> seconds;
        seconds.reserve(configs.size());
        for (size_t i = 0; i < configs.size(); ++i) {
          auto [mm, n, k] = shapes[i];
          const KernelConfig &c = configs[i];
          std::optional<Staged> flags;
          if (staged)
            flags = (*staged)[i];
          seconds.push_back(dispatch::physicsEstimate(
                                params, c,
                                withStaging(configProblem(c, mm, n, k), flags),
                                {bundle::Arch::Sm90a, smCount})
                                .physicsSeconds);
        }
        return seconds;
      },
      nb::arg("hardware"), nb::arg("tile_efficiency"), nb::arg("configs"),
      nb::arg("shapes"), nb::arg("sm_count") = 132,
      nb::arg("staged") = nb::none(),
      "The physics part of the model for given parameters (the fit's "
      "objective; units as in the model file), one time per (config, shape).");
  m.def(
      "library_set",
      [](const dispatch::DispatchModel &model,
         const std::vector<std::string> &types, bool allLayouts) {
        std::vector<bundle::DType> parsed;
        for (const std::string &t : types)
          parsed.push_back(parseType(t, "dtype"));
        return allLayouts ? dispatch::librarySet(model, parsed,
                                                 dispatch::libraryLayouts(),
                                                 /*batched=*/true)
                          : dispatch::librarySet(model, parsed);
      },
      nb::arg("model"), nb::arg("dtypes"), nb::arg("all_layouts") = false,
      "The configurations a kernel library holds (all_layouts: in each of "
      "the library's layouts and their batched twins, as the build's "
      "library; else the default layouts only).");

  nb::class_<dispatch::KernelLibrary>(m, "KernelLibrary")
      .def_static("load",
                  [](const std::string &dir) {
                    return dispatch::KernelLibrary::load(dir);
                  })
      .def_prop_ro(
          "dir",
          [](const dispatch::KernelLibrary &l) { return l.dir().string(); })
      .def_prop_ro("model", &dispatch::KernelLibrary::model,
                   nb::rv_policy::reference_internal)
      .def_prop_ro("configs", &dispatch::KernelLibrary::configs)
      .def("manifest_path",
           [](const dispatch::KernelLibrary &l, const KernelConfig &c) {
             return l.manifestPath(c).string();
           });

  // ---- bundles and launches ------------------------------------------------
  nb::class_<runtime::LaunchPlan>(m, "LaunchPlan")
      .def_prop_ro("lds",
                   [](const runtime::LaunchPlan &p) {
                     return std::make_tuple(p.matrices[0].ld, p.matrices[1].ld,
                                            p.matrices[2].ld);
                   })
      .def_prop_ro("workspaces",
                   [](const runtime::LaunchPlan &p) {
                     std::vector<std::pair<uint64_t, bool>> out;
                     for (const runtime::WorkspacePlan &w : p.workspaces)
                       out.emplace_back(w.bytes, w.zeroInit);
                     return out;
                   })
      .def_prop_ro(
          "scales",
          [](const runtime::LaunchPlan &p) {
            // (tensor or "amax", granularity, rows, cols).
            std::vector<
                std::tuple<std::string, std::string, uint64_t, uint64_t>>
                out;
            for (const runtime::ScalePlan &s : p.scales)
              out.emplace_back(
                  s.amax ? "amax" : std::string(bundle::toString(s.tensor)),
                  s.amax ? "" : std::string(bundle::toString(s.granularity)),
                  s.rows, s.cols);
            return out;
          })
      .def_ro("group_table_bytes", &runtime::LaunchPlan::groupTableBytes)
      .def_ro("group_unit_rows", &runtime::LaunchPlan::groupUnitRows)
      .def_ro("grid", &runtime::LaunchPlan::grid)
      .def_ro("block", &runtime::LaunchPlan::block)
      .def_ro("cluster", &runtime::LaunchPlan::cluster)
      .def_ro("dynamic_smem_bytes", &runtime::LaunchPlan::dynamicSmemBytes)
      .def("describe", &runtime::describePlan);

  nb::class_<Bundle>(m, "Bundle")
      .def_static("load", &Bundle::load, nb::arg("manifest_path"))
      .def_prop_ro(
          "manifest_path",
          [](const Bundle &b) { return b.bundle.manifestPath.string(); })
      .def_prop_ro("name", [](const Bundle &b) { return b.manifest().name; })
      .def_prop_ro("arch",
                   [](const Bundle &b) {
                     return std::string(bundle::toString(b.manifest().arch));
                   })
      .def_prop_ro(
          "dtypes",
          [](const Bundle &b) {
            const bundle::TensorTypes &t = b.manifest().types;
            return std::make_tuple(typeName(t.a), typeName(t.b), typeName(t.c));
          },
          "(A, B, C) element types")
      .def_prop_ro(
          "layouts",
          [](const Bundle &b) {
            return dispatch::layoutTriple(b.manifest().layouts);
          },
          "A, B, C storage orders, e.g. 'row,col,row' (see gemm.matmul)")
      .def_prop_ro("tile", [](const Bundle &b) { return b.manifest().tile; })
      .def_prop_ro("cluster",
                   [](const Bundle &b) { return b.manifest().cluster; })
      .def_prop_ro("alignment_bytes",
                   [](const Bundle &b) {
                     return b.manifest().constraints.leadingDimAlignmentBytes;
                   })
      .def_prop_ro("batched",
                   [](const Bundle &b) { return b.manifest().hasBatch(); })
      .def_prop_ro("grouped",
                   [](const Bundle &b) { return b.manifest().hasGroups(); })
      .def_prop_ro(
          "reads_through_tma",
          [](const Bundle &b) {
            const bundle::KernelManifest &m = b.manifest();
            return std::make_tuple(
                m.tmaDescriptorFor(bundle::Tensor::A) != nullptr,
                m.tmaDescriptorFor(bundle::Tensor::B) != nullptr,
                m.tmaDescriptorFor(bundle::Tensor::C) != nullptr);
          },
          "(a, b, c): whether the kernel reads (writes) each matrix through "
          "a TMA descriptor, which needs 16-byte rows and addresses; the "
          "others it takes as pointers, at any alignment.")
      .def(
          "plan",
          [](const Bundle &b, uint64_t mm, uint64_t n, uint64_t k,
             uint32_t smCount, std::optional<uint64_t> lda,
             std::optional<uint64_t> ldb, std::optional<uint64_t> ldc,
             uint64_t batch, const BatchStrides &batchStrides,
             uint64_t groups) {
            return b.plan(mm, n, k, lda, ldb, ldc, smCount, batch, batchStrides,
                          groups);
          },
          nb::arg("m"), nb::arg("n"), nb::arg("k"), nb::arg("sm_count") = 132,
          nb::arg("lda") = nb::none(), nb::arg("ldb") = nb::none(),
          nb::arg("ldc") = nb::none(), nb::arg("batch") = 1,
          nb::arg("batch_strides") =
              std::make_tuple(nb::none(), nb::none(), nb::none()),
          nb::arg("groups") = 0,
          "The launch plan without a GPU (persistent grids sized for "
          "sm_count CTAs).");

  nb::class_<Kernel>(m, "Kernel")
      .def(nb::init<const Bundle &, int>(), nb::arg("bundle"),
           nb::arg("device") = 0,
           "Loads the bundle onto GPU `device` (arch checked first).")
      .def_ro("bundle", &Kernel::bundle)
      .def_ro("capacity", &Kernel::capacity)
      .def_ro("has_workspaces", &Kernel::hasWorkspaces)
      .def_ro("has_scales", &Kernel::hasScales)
      .def_prop_ro("source", [](const Kernel &k) { return k.loaded->source(); })
      .def("plan", &Kernel::plan, nb::arg("m"), nb::arg("n"), nb::arg("k"),
           nb::arg("lda") = nb::none(), nb::arg("ldb") = nb::none(),
           nb::arg("ldc") = nb::none(), nb::arg("batch") = 1,
           nb::arg("batch_strides") =
               std::make_tuple(nb::none(), nb::none(), nb::none()),
           nb::arg("groups") = 0)
      .def("run_grouped", &Kernel::runGrouped, nb::arg("m"), nb::arg("n"),
           nb::arg("k"), nb::arg("groups"), nb::arg("a"), nb::arg("lda"),
           nb::arg("b"), nb::arg("ldb"), nb::arg("b_stride"), nb::arg("c"),
           nb::arg("ldc"), nb::arg("offsets"), nb::arg("offsets64"),
           nb::arg("offsets_ends"), nb::arg("table"), nb::arg("table_bytes"),
           nb::arg("stream"))
      .def("run", &Kernel::run, nb::arg("m"), nb::arg("n"), nb::arg("k"),
           nb::arg("a"), nb::arg("lda"), nb::arg("b"), nb::arg("ldb"),
           nb::arg("c"), nb::arg("ldc"), nb::arg("workspaces"),
           nb::arg("stream"), nb::arg("batch") = 1,
           nb::arg("batch_strides") =
               std::make_tuple(nb::none(), nb::none(), nb::none()),
           nb::arg("scales") = std::vector<uintptr_t>());

  m.def(
      "dlpack_info",
      [](nb::ndarray<nb::ro> array) {
        std::vector<int64_t> shape, strides;
        for (size_t i = 0; i < array.ndim(); ++i) {
          shape.push_back(array.shape(i));
          strides.push_back(array.stride(i));
        }
        nb::dlpack::dtype type = array.dtype();
        return std::make_tuple(reinterpret_cast<uintptr_t>(array.data()), shape,
                               strides, int(type.code), int(type.bits),
                               int(type.lanes), int(array.device_type()),
                               int(array.device_id()));
      },
      nb::arg("tensor"),
      "(address, shape, strides in elements, DLPack type code, bits, lanes, "
      "device type, device id) of any tensor that speaks DLPack.");
  m.def(
      "device_info",
      [](int ordinal) {
        const runtime::DeviceInfo &info = openDevice(ordinal).info();
        nb::dict d;
        d["name"] = info.name;
        d["compute_capability"] = std::make_pair(info.ccMajor, info.ccMinor);
        d["sm_count"] = info.smCount;
        d["arch"] = info.ccMajor == 9 && info.ccMinor == 0    ? "sm_90a"
                    : info.ccMajor == 10 && info.ccMinor == 0 ? "sm_100a"
                                                              : "";
        return d;
      },
      nb::arg("device") = 0,
      "The GPU's name, compute capability, SM count and the arch its "
      "kernels target; NoDeviceError without a driver or GPU.");
  m.def(
      "device_memory",
      [](int ordinal) {
        ContextScope scope(openDevice(ordinal));
        size_t free = 0, total = 0;
        runtime::checkCu(runtime::driver().cuMemGetInfo(&free, &total),
                         "reading GPU memory");
        return std::make_pair(free, total);
      },
      nb::arg("device") = 0, "(free, total) bytes of the GPU's memory.");
}
