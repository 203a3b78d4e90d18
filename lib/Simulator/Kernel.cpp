//===- Kernel.cpp - The simulator's precomputed view of a kernel ----------===//

#include "Kernel.h"
#include "Machine.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

HandlerTable sim::getHandlers(MLIRContext *ctx) {
  // Built per kernel (a hundred entries): op names belong to their context,
  // and a context may be destroyed and another made at the same address.
  HandlerTable table;
  registerCoreOps(ctx, table);
  registerPipelineOps(ctx, table);
  registerTmaOps(ctx, table);
  registerMmaOps(ctx, table);
  registerEpilogueOps(ctx, table);
  registerSchedulerOps(ctx, table);
  registerSm100Ops(ctx, table);
  registerQuantOps(ctx, table);
  registerDirectOps(ctx, table);
  return table;
}

Type sim::elementType(MLIRContext *ctx, bundle::DType dtype) {
  switch (dtype) {
  case bundle::DType::BF16:
    return BFloat16Type::get(ctx);
  case bundle::DType::F16:
    return Float16Type::get(ctx);
  case bundle::DType::F32:
    return Float32Type::get(ctx);
  case bundle::DType::E4M3:
    return Float8E4M3FNType::get(ctx);
  case bundle::DType::E5M2:
    return Float8E5M2Type::get(ctx);
  case bundle::DType::S8:
    return IntegerType::get(ctx, 8, IntegerType::Signed);
  case bundle::DType::U8:
    return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case bundle::DType::S32:
    return IntegerType::get(ctx, 32);
  }
  return Type();
}

KernelImage::KernelImage(gpu::GPUFuncOp func, bundle::KernelManifest manifest)
    : func(func), manifest(std::move(manifest)) {
  MLIRContext *ctx = func.getContext();
  HandlerTable handlers = getHandlers(ctx);
  arch = this->manifest.arch == bundle::Arch::Sm100a ? Arch::sm_100a
                                                     : Arch::sm_90a;
  // Element types: the manifest's (a direct kernel has no TMA descriptors
  // to take them from; the TMA descriptors' types are checked against them
  // where a load or store uses them).
  aType = elementType(ctx, this->manifest.types.a);
  bType = elementType(ctx, this->manifest.types.b);
  cType = elementType(ctx, this->manifest.types.c);
  func.walk([&](DirectLoadOp) { direct = true; });

  auto number = [&](Value value) { values.try_emplace(value, numValues++); };
  func.walk<WalkOrder::PreOrder>([&](Block *block) {
    for (BlockArgument arg : block->getArguments())
      number(arg);
  });
  func.walk([&](Operation *op) {
    for (Value result : op->getResults())
      number(result);
  });
  func.walk([&](Operation *op) {
    if (op == func.getOperation())
      return;
    OpInfo info;
    auto found = handlers.find(op->getName());
    if (found == handlers.end()) {
      if (!unsupported) {
        Violation v;
        v.kind = Violation::Kind::Unsupported;
        v.op = op;
        v.message = "the simulator has no semantics for '" +
                    op->getName().getStringRef().str() +
                    "': add a handler (lib/Simulator/Ops*.cpp) before "
                    "simulating or checking this kernel";
        unsupported = std::move(v);
      }
    } else {
      info.handler = found->second;
    }
    for (Value operand : op->getOperands()) {
      auto it = values.find(operand);
      if (it == values.end()) {
        // A value defined outside the kernel (cannot happen in a verified
        // gpu.func, which is isolated from above).
        if (!unsupported) {
          Violation v;
          v.kind = Violation::Kind::Unsupported;
          v.op = op;
          v.message = "an operand is defined outside the kernel";
          unsupported = std::move(v);
        }
        info.operands.push_back(0);
        continue;
      }
      info.operands.push_back(it->second);
    }
    for (Value result : op->getResults())
      info.results.push_back(values.find(result)->second);
    if (isa<SplitKArriveOp, BarrierAnyOp, ClcQueryOp>(op))
      llvm::append_range(orderDependentValues, info.results);
    ops[op] = std::move(info);
  });

  func.walk([&](SmemPlanOp op) {
    if (plan)
      return;
    plan = op;
    planOffsets = op.getOffsets();
    smemBytes = op.getTotalBytes();
    unsigned index = 0;
    for (auto [i, type] : llvm::enumerate(op.getResultTypes())) {
      auto pipeline = dyn_cast<PipelineType>(type);
      if (!pipeline)
        continue;
      PipelineInfo info;
      info.offset = static_cast<uint32_t>(planOffsets[i]);
      info.type = pipeline;
      info.index = index++;
      pipelines.push_back(info);
    }
  });
}

const PipelineInfo *KernelImage::pipelineAt(uint32_t offset) const {
  for (const PipelineInfo &info : pipelines)
    if (info.offset == offset)
      return &info;
  return nullptr;
}

const PipelineInfo *KernelImage::pipelineOf(uint32_t barrierOffset) const {
  for (const PipelineInfo &info : pipelines)
    if (barrierOffset >= info.offset &&
        barrierOffset < info.offset + info.type.getBarrierBytes())
      return &info;
  return nullptr;
}
