//===- Launch.cpp - TMA descriptors and kernel launch ---------------------===//

#include "gemm/Runtime/Launch.h"
#include "gemm/Runtime/Driver.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/GroupProblemsLaunch.h"
#include "gemm/Runtime/GroupTableLaunch.h"

namespace gemm::runtime {
namespace {

using namespace gemm::bundle;

CUtensorMapDataType tmaDataType(DType dtype) {
  switch (dtype) {
  case DType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DType::E4M3:
  case DType::E5M2:
  case DType::S8:
  case DType::U8:
    // TMA has no fp8 or signed 8-bit type; it moves such tiles as bytes.
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case DType::S32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

CUtensorMapSwizzle tmaSwizzle(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::None:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  case Swizzle::B32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case Swizzle::B64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case Swizzle::B128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  }
  return CU_TENSOR_MAP_SWIZZLE_NONE;
}

CUtensorMapInterleave tmaInterleave(Interleave interleave) {
  switch (interleave) {
  case Interleave::None:
    return CU_TENSOR_MAP_INTERLEAVE_NONE;
  case Interleave::B16:
    return CU_TENSOR_MAP_INTERLEAVE_16B;
  case Interleave::B32:
    return CU_TENSOR_MAP_INTERLEAVE_32B;
  }
  return CU_TENSOR_MAP_INTERLEAVE_NONE;
}

CUtensorMapL2promotion tmaL2Promotion(L2Promotion promotion) {
  switch (promotion) {
  case L2Promotion::None:
    return CU_TENSOR_MAP_L2_PROMOTION_NONE;
  case L2Promotion::B64:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
  case L2Promotion::B128:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  case L2Promotion::B256:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  }
  return CU_TENSOR_MAP_L2_PROMOTION_NONE;
}

CUtensorMapFloatOOBfill tmaOobFill(OobFill fill) {
  return fill == OobFill::Zero
             ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
             : CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
}

template <typename T> std::string list(const T *values, uint32_t count) {
  std::string text = "[";
  for (uint32_t i = 0; i < count; ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

} // namespace

uint32_t persistentCtaCapacity(const LoadedKernel &kernel,
                               const KernelManifest &manifest,
                               const DeviceInfo &gpu) {
  const DriverApi &api = driver();
  uint32_t threads = manifest.block[0] * manifest.block[1] * manifest.block[2];
  uint32_t clusterSize = manifest.cluster[0];
  if (clusterSize == 1) {
    int blocksPerSm = 0;
    checkCu(api.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                &blocksPerSm, kernel.function(), static_cast<int>(threads),
                manifest.dynamicSmemBytes),
            "computing the occupancy of " + kernel.name());
    if (blocksPerSm == 0)
      throw Error(ErrorKind::Usage,
                  "kernel " + kernel.name() + " cannot be resident on " +
                      gpu.name + " (block " + std::to_string(threads) +
                      " threads, " + std::to_string(manifest.dynamicSmemBytes) +
                      " bytes dynamic smem, " +
                      std::to_string(kernel.registersPerThread()) +
                      " registers/thread)");
    return static_cast<uint32_t>(gpu.smCount);
  }

  CUlaunchAttribute clusterAttr = {};
  clusterAttr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  clusterAttr.value.clusterDim.x = clusterSize;
  clusterAttr.value.clusterDim.y = 1;
  clusterAttr.value.clusterDim.z = 1;
  CUlaunchConfig config = {};
  config.gridDimX = clusterSize;
  config.gridDimY = 1;
  config.gridDimZ = 1;
  config.blockDimX = manifest.block[0];
  config.blockDimY = manifest.block[1];
  config.blockDimZ = manifest.block[2];
  config.sharedMemBytes = manifest.dynamicSmemBytes;
  config.attrs = &clusterAttr;
  config.numAttrs = 1;
  int clusters = 0;
  checkCu(
      api.cuOccupancyMaxActiveClusters(&clusters, kernel.function(), &config),
      "computing the cluster occupancy of " + kernel.name());
  if (clusters == 0)
    throw Error(ErrorKind::Usage,
                "kernel " + kernel.name() + ": not one cluster of " +
                    std::to_string(clusterSize) + " CTAs fits on " + gpu.name +
                    " (" + std::to_string(manifest.dynamicSmemBytes) +
                    " bytes dynamic smem per CTA)");
  return static_cast<uint32_t>(clusters) * clusterSize;
}

CUtensorMap encodeTensorMap(const TmaPlan &plan, CUdeviceptr base) {
  std::vector<std::string> errors = checkTmaPlan(plan);
  uint32_t baseAlign = plan.interleave == Interleave::B32 ? 32 : 16;
  std::string name = "tensor " + std::string(toString(plan.tensor)) +
                     " (params[" + std::to_string(plan.paramIndex) + "])";
  if (base % baseAlign != 0)
    errors.push_back(name + ": base address " + std::to_string(base) +
                     " is not " + std::to_string(baseAlign) +
                     "-byte aligned (TMA rule)");
  if (!errors.empty()) {
    std::string message;
    for (const std::string &error : errors)
      message += (message.empty() ? "" : "\n") + error;
    throw Error(ErrorKind::Usage, message);
  }

  CUtensorMap map;
  CUresult result = driver().cuTensorMapEncodeTiled(
      &map, tmaDataType(plan.dtype), plan.rank, reinterpret_cast<void *>(base),
      plan.globalDim.data(), plan.globalStrides.data(), plan.box.data(),
      plan.elementStrides.data(), tmaInterleave(plan.interleave),
      tmaSwizzle(plan.swizzle), tmaL2Promotion(plan.l2Promotion),
      tmaOobFill(plan.oobFill));
  checkCu(result, "creating the TMA descriptor for " + name + " with dims " +
                      list(plan.globalDim.data(), plan.rank) + ", strides " +
                      list(plan.globalStrides.data(), plan.rank - 1) +
                      " bytes, box " + list(plan.box.data(), plan.rank));
  return map;
}

std::vector<CUtensorMap> encodeTensorMaps(const LaunchPlan &plan, CUdeviceptr a,
                                          CUdeviceptr b, CUdeviceptr c) {
  const CUdeviceptr bases[] = {a, b, c};
  std::vector<CUtensorMap> maps;
  for (const TmaPlan &tma : plan.tma)
    maps.push_back(
        encodeTensorMap(tma, bases[static_cast<size_t>(tma.tensor)]));
  return maps;
}

void launchKernel(const LoadedKernel &kernel, const LaunchPlan &plan,
                  const std::vector<CUtensorMap> &tensorMaps,
                  const std::vector<CUdeviceptr> &workspaces,
                  const std::array<CUdeviceptr, 3> &matrices, CUstream stream,
                  const std::vector<CUdeviceptr> &scales,
                  CUdeviceptr groupTable) {
  if (scales.size() < plan.scales.size())
    throw Error(
        ErrorKind::Usage,
        "kernel " + kernel.name() + " takes " +
            std::to_string(plan.scales.size()) + " scale/amax buffers, got " +
            std::to_string(scales.size()) +
            " (first missing: " + plan.scales[scales.size()].describe() + ")");
  // kernelParams[i] points at the value of parameter i: the 128-byte
  // descriptor itself (passed by value), the 32-bit size, the 64-bit
  // workspace or matrix address, or the 64-bit leading dimension.
  std::vector<uint32_t> sizes(plan.args.size());
  std::vector<uint64_t> wide(plan.args.size());
  std::vector<void *> params(plan.args.size());
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const KernelArg &arg = plan.args[i];
    if (arg.kind == ParamKind::TmaDescriptor) {
      params[i] = const_cast<CUtensorMap *>(&tensorMaps.at(arg.tmaIndex));
    } else if (arg.kind == ParamKind::Workspace) {
      params[i] = const_cast<CUdeviceptr *>(&workspaces.at(arg.workspaceIndex));
    } else if (arg.kind == ParamKind::Scale || arg.kind == ParamKind::Amax) {
      params[i] = const_cast<CUdeviceptr *>(&scales.at(arg.scaleIndex));
    } else if (arg.kind == ParamKind::Pointer) {
      wide[i] = matrices[static_cast<size_t>(arg.tensor)];
      const MatrixPlan &matrix = plan.kernelMatrix(arg.tensor);
      if (wide[i] == 0)
        throw Error(ErrorKind::Usage, "launching " + kernel.name() +
                                          ": no address for tensor " +
                                          std::string(toString(arg.tensor)));
      if (wide[i] % elementBytes(matrix.dtype) != 0)
        throw Error(ErrorKind::Usage,
                    "tensor " + std::string(toString(arg.tensor)) +
                        ": address " + std::to_string(wide[i]) +
                        " is not a multiple of its " +
                        std::string(toString(matrix.dtype)) + " element size");
      params[i] = &wide[i];
    } else if (arg.kind == ParamKind::LeadingDim) {
      wide[i] = arg.leadingDim;
      params[i] = &wide[i];
    } else if (arg.kind == ParamKind::GroupTable ||
               arg.kind == ParamKind::GroupProblemTable) {
      if (groupTable == 0)
        throw Error(ErrorKind::Usage,
                    "launching grouped kernel " + kernel.name() +
                        ": no group table (launch it with launchGrouped)");
      wide[i] = groupTable;
      params[i] = &wide[i];
    } else {
      sizes[i] = arg.value;
      params[i] = &sizes[i];
    }
  }

  CUlaunchAttribute clusterAttr = {};
  clusterAttr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  clusterAttr.value.clusterDim.x = plan.cluster[0];
  clusterAttr.value.clusterDim.y = plan.cluster[1];
  clusterAttr.value.clusterDim.z = plan.cluster[2];
  CUlaunchConfig config = {};
  config.gridDimX = plan.grid[0];
  config.gridDimY = plan.grid[1];
  config.gridDimZ = plan.grid[2];
  config.blockDimX = plan.block[0];
  config.blockDimY = plan.block[1];
  config.blockDimZ = plan.block[2];
  config.sharedMemBytes = plan.dynamicSmemBytes;
  config.hStream = stream;
  bool clustered = plan.cluster[0] * plan.cluster[1] * plan.cluster[2] > 1;
  config.attrs = clustered ? &clusterAttr : nullptr;
  config.numAttrs = clustered ? 1 : 0;
  checkCu(driver().cuLaunchKernelEx(&config, kernel.function(), params.data(),
                                    nullptr),
          "launching kernel " + kernel.name());
}

void launchGrouped(const LoadedKernel &kernel, const LaunchPlan &plan,
                   const std::vector<CUtensorMap> &tensorMaps,
                   const std::array<CUdeviceptr, 3> &matrices,
                   const DeviceOffsets &offsets, CUdeviceptr groupTable,
                   CUstream stream) {
  if (plan.groupTableBytes == 0)
    throw Error(ErrorKind::Usage,
                "kernel " + kernel.name() + " is not grouped");
  if (offsets.address == 0 || groupTable == 0)
    throw Error(ErrorKind::Usage, "launching grouped kernel " + kernel.name() +
                                      ": no offsets or no group table");
  launchGroupTable(offsets, plan.problem.groups, plan.problem.m,
                   plan.groupUnitRows, groupTable, plan.groupTableBytes,
                   stream);
  launchKernel(kernel, plan, tensorMaps, {}, matrices, stream, {}, groupTable);
}

void launchGeneral(const LoadedKernel &kernel, const LaunchPlan &plan,
                   const std::vector<CUtensorMap> &tensorMaps,
                   CUdeviceptr problems, CUdeviceptr groupTable,
                   CUstream stream) {
  if (!plan.general)
    throw Error(ErrorKind::Usage,
                "kernel " + kernel.name() + " is not a general grouped kernel");
  if (problems == 0 || groupTable == 0)
    throw Error(ErrorKind::Usage, "launching general grouped kernel " +
                                      kernel.name() +
                                      ": no group records or no group table");
  if (groupTable % 128 != 0)
    throw Error(ErrorKind::Usage,
                "launching general grouped kernel " + kernel.name() +
                    ": the group table must be 128-byte aligned (its tensor "
                    "maps are)");
  CUtensorMap templates[3];
  bool found[3] = {false, false, false};
  for (size_t i = 0; i < plan.tma.size() && i < tensorMaps.size(); ++i) {
    size_t t = static_cast<size_t>(plan.tma[i].tensor);
    if (!found[t]) {
      templates[t] = tensorMaps[i];
      found[t] = true;
    }
  }
  if (!found[0] || !found[1] || !found[2])
    throw Error(ErrorKind::Usage, "launching general grouped kernel " +
                                      kernel.name() +
                                      ": the A, B and C tensor-map templates "
                                      "are needed (encodeTensorMaps)");
  launchGeneralTable(problems, plan.problem.groups, plan.groupLayouts,
                     plan.groupUnitRows, plan.groupUnitCols, templates,
                     groupTable, stream);
  launchKernel(kernel, plan, tensorMaps, {}, {0, 0, 0}, stream, {}, groupTable);
}

std::string readGeneralTableError(const LaunchPlan &plan,
                                  CUdeviceptr groupTable, CUstream stream) {
  uint32_t header[4] = {0, 0, 0, 0};
  checkCu(driver().cuStreamSynchronize(stream),
          "waiting for the general grouped launch");
  checkCu(driver().cuMemcpyDtoH(header, groupTable, sizeof(header)),
          "reading the general group table's header");
  return general::describeTableError(header[1], header[2], plan.problem.groups);
}

} // namespace gemm::runtime
