//===- ExportBundle.cpp - write kernel bundles ---------------------------===//

#include "gemm/Bundle/Manifest.h"
#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Dialect/Gemm/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::gemm {
#define GEN_PASS_DEF_GEMMEXPORTBUNDLE
#include "gemm/Dialect/Gemm/Transforms/Passes.h.inc"
} // namespace mlir::gemm

using namespace mlir;
using namespace mlir::gemm;
namespace bundle = ::gemm::bundle;

namespace {

LogicalResult writeFile(Operation *op, StringRef path, StringRef contents) {
  std::error_code error;
  llvm::raw_fd_ostream out(path, error);
  if (error)
    return op->emitError("cannot write ") << path << ": " << error.message();
  out << contents;
  return success();
}

struct GemmExportBundlePass
    : public mlir::gemm::impl::GemmExportBundleBase<GemmExportBundlePass> {
  using Base::Base;

  /// ptxas to use, or empty when the cubin is skipped.
  std::string findPtxas() {
    if (ptxas == "none")
      return "";
    if (!ptxas.empty())
      return ptxas;
    if (auto found = llvm::sys::findProgramByName("ptxas"))
      return *found;
    if (auto found =
            llvm::sys::findProgramByName("ptxas", {"/usr/local/cuda/bin"}))
      return *found;
    return "";
  }

  LogicalResult assemble(gpu::BinaryOp binary, StringRef tool, StringRef arch,
                         StringRef ptxPath, StringRef cubinPath) {
    SmallString<128> errorPath;
    llvm::sys::fs::createTemporaryFile("ptxas", "log", errorPath);
    std::optional<StringRef> redirects[] = {std::nullopt, StringRef(errorPath),
                                            StringRef(errorPath)};
    std::string archFlag = ("-arch=" + arch).str();
    StringRef args[] = {tool, archFlag, "-o", cubinPath, ptxPath};
    std::string message;
    int code = llvm::sys::ExecuteAndWait(tool, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/600, 0, &message);
    auto log = llvm::MemoryBuffer::getFile(errorPath);
    llvm::sys::fs::remove(errorPath);
    if (code == 0)
      return success();
    return binary.emitError("ptxas failed on ")
           << ptxPath << " ("
           << (message.empty() ? "exit " + std::to_string(code) : message)
           << "): " << (log ? (*log)->getBuffer() : "");
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto bundles = module->getAttrOfType<DictionaryAttr>("gemm.bundles");
    if (std::error_code error = llvm::sys::fs::create_directories(outputDir)) {
      module.emitError("cannot create output directory ")
          << outputDir << ": " << error.message();
      return signalPassFailure();
    }
    std::string tool = findPtxas();
    module.walk([&](gpu::BinaryOp binary) {
      StringRef name = binary.getSymName();
      auto json = bundles ? bundles.getAs<StringAttr>(name) : StringAttr();
      if (!json) {
        binary.emitError("no gemm.bundles launch contract for kernel '")
            << name << "': was it made by a gemm-materialize pass?";
        return signalPassFailure();
      }
      bundle::ParseResult parsed = bundle::parseManifestText(json.getValue());
      if (!parsed.manifest) {
        auto diag = binary.emitError("invalid launch contract for '")
                    << name << "'";
        for (const std::string &error : parsed.errors)
          diag << "; " << error;
        return signalPassFailure();
      }
      bundle::KernelManifest manifest = *parsed.manifest;
      auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
      if (object.getFormat() != gpu::CompilationTarget::Assembly) {
        binary.emitError("kernel '")
            << name
            << "' was not compiled to PTX: run gpu-module-to-binary "
               "with format=isa";
        return signalPassFailure();
      }
      SmallString<128> ptxPath(outputDir), cubinPath(outputDir),
          jsonPath(outputDir);
      llvm::sys::path::append(ptxPath, manifest.ptx);
      if (failed(writeFile(binary, ptxPath, object.getObject().getValue())))
        return signalPassFailure();
      if (!tool.empty()) {
        std::string cubin = name.str() + ".cubin";
        llvm::sys::path::append(cubinPath, cubin);
        if (failed(assemble(binary, tool,
                            bundle::toString(manifest.arch).data(), ptxPath,
                            cubinPath)))
          return signalPassFailure();
        manifest.cubin = cubin;
      }
      std::vector<std::string> problems = manifest.validate();
      if (!problems.empty()) {
        auto diag = binary.emitError("launch contract of '")
                    << name << "' is invalid";
        for (const std::string &problem : problems)
          diag << "; " << problem;
        return signalPassFailure();
      }
      llvm::sys::path::append(jsonPath, name + ".json");
      if (failed(writeFile(binary, jsonPath, manifest.toJsonString() + "\n")))
        return signalPassFailure();
    });
  }
};

} // namespace
