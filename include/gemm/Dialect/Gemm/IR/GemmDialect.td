#ifndef GEMM_DIALECT_TD
#define GEMM_DIALECT_TD

include "mlir/IR/OpBase.td"

def Gemm_Dialect : Dialect {
  let name = "gemm";
  let cppNamespace = "::mlir::gemm";
  let summary = "GEMM kernels for NVIDIA Hopper (SM90) and Blackwell (SM100)";
  let description = [{
    The `gemm` dialect describes GEMM kernels at the level their authors think
    in: the problem (`gemm.matmul` with a `#gemm.config`), and the kernel
    structure that the materialize passes build from it: a shared-memory plan,
    typed producer/consumer pipelines on mbarriers, TMA tile loads and stores,
    warp-role regions with register budgets, WGMMA (SM90) and tcgen05 MMA with
    tensor memory (SM100), tile schedulers and epilogues. Each op documents the
    PTX it lowers to.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

class Gemm_Op<string mnemonic, list<Trait> traits = []>
    : Op<Gemm_Dialect, mnemonic, traits>;

#endif // GEMM_DIALECT_TD
