//===- gemm-fuzz.cpp - libFuzzer harness over the gemm compiler ----------===//
//
// Each input is an MLIR file. It is parsed (which verifies it), printed and
// parsed again, and, when it parses, compiled in-process by the pipeline
// gemm-opt --gemm-to-nvvm runs: the placement check, materialize (sm_90a and
// sm_100a), the static checks (gemm-check-protocol, the simulator, for a share
// of inputs and within a step bound), the lowering to NVVM; for a share of
// inputs on to PTX through LLVM's NVPTX back end (gemm-to-ptx with no output
// directory: nothing is written, ptxas is not run). docs/Fuzzing.md describes
// how to build and run it.
//
// Diagnostics are expected outcomes. What the harness treats as a bug (and
// aborts on, so libFuzzer saves the input) besides what the sanitizers,
// assertions and libFuzzer's -timeout / -rss_limit_mb catch:
//   - a pass that succeeds but leaves IR the verifier rejects (the verifier
//     runs after every pass, the pass manager's own is off so the two cases
//     are told apart);
//   - a parse or a pass that fails without an error diagnostic;
//   - a module whose printed form does not parse, or prints differently
//     when parsed again;
//   - a pipeline that succeeds but leaves gemm ops (or, for PTX, a
//     gpu.module without its binary) behind;
//   - an LLVM fatal error (report_fatal_error, e.g. the NVPTX back end
//     unable to select an instruction we emitted);
//   - a protocol violation that gemm-check-protocol finds in a kernel the
//     materializers made (a wrong kernel, or a simulator without the
//     semantics of an op the compiler emits).
//
//===----------------------------------------------------------------------===//

#include "ConfigMutator.h"

#include "gemm/Dialect/Gemm/IR/GemmOps.h"
#include "gemm/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

/// The pipeline options of one input: its option line's, else derived from
/// its hash (so that each input always runs the same way).
struct Options {
  bool ptx = false;
  int64_t debugWaits = 0;
  int64_t wgmmaLookahead = 1;
  int64_t storeSlots = 2;
  bool checks = true;
  /// gemm-check-protocol (with checks): the simulator runs every kernel,
  /// bounded by Settings::protocolSteps.
  bool protocol = false;
};

/// Settings of the whole run, from the environment.
struct Settings {
  /// Inputs without `ptx=` in their option line go on to PTX when their hash
  /// is a multiple of this (0: never). GEMM_FUZZ_PTX_EVERY, default 8.
  uint64_t ptxEvery = 8;
  /// GEMM_FUZZ_VERBOSE=1: print every diagnostic and outcome.
  bool verbose = false;
  /// GEMM_FUZZ_STATS=1: print the outcome counts at exit.
  bool stats = false;
  /// GEMM_FUZZ_TIMING=1: print the pass timings of every input.
  bool timing = false;
  /// A fresh MLIRContext after this many inputs (GEMM_FUZZ_CONTEXT_RUNS,
  /// default 256; 1: one per input). Creating one and loading the dialects
  /// costs about 10 ms, more than most inputs; a context lives on only so
  /// long because what one input uniques (attributes, types, names) is never
  /// freed before the context is.
  uint64_t contextRuns = 256;
  /// Inputs without `protocol=` in their option line run gemm-check-protocol
  /// when their hash is a multiple of this (0: never).
  /// GEMM_FUZZ_PROTOCOL_EVERY, default 8.
  uint64_t protocolEvery = 8;
  /// gemm-check-protocol's step bound per kernel (its max-steps; past it
  /// the check stops with a warning, not a finding; the smallest problems
  /// go first), so that one input costs at most a fraction of a second.
  /// GEMM_FUZZ_PROTOCOL_STEPS, default 100000 (0: none).
  uint64_t protocolSteps = 100000;
};

Settings settings;
DialectRegistry *registry = nullptr;

struct Stats {
  uint64_t inputs = 0, syntaxErrors = 0, parsed = 0, verified = 0, compiled = 0,
           ptx = 0, diagnosed = 0;
} stats;

/// Whether the first error of an input the parser rejected is the parser's
/// own (syntax), not a type's or an attribute's verifier, which MLIR runs
/// while parsing (an illegal config value is rejected there). A heuristic
/// on the messages of MLIR's parser, for the stats only.
bool isSyntaxError(StringRef message) {
  static const char *const prefixes[] = {"expected",
                                         "unexpected",
                                         "custom op",
                                         "unbalanced",
                                         "invalid",
                                         "undefined",
                                         "use of",
                                         "unknown",
                                         "duplicate",
                                         "redefinition",
                                         "struct is missing",
                                         "failed to parse",
                                         "Dialect",
                                         "dialect",
                                         "operation",
                                         "reference to",
                                         "empty",
                                         "@ identifier",
                                         "unterminated",
                                         "integer",
                                         "floating",
                                         "attribute",
                                         "region",
                                         "block",
                                         "entry block",
                                         "missing",
                                         "cannot",
                                         "'"};
  return llvm::any_of(prefixes, [&](const char *prefix) {
    return message.starts_with(prefix);
  });
}

void printStats() {
  if (!settings.stats || stats.inputs == 0)
    return;
  auto percent = [](uint64_t part) {
    return static_cast<unsigned>(100 * part / stats.inputs);
  };
  std::fprintf(stderr,
               "gemm-fuzz: %llu inputs, syntax errors %llu (%u%%), parsed "
               "%llu (%u%%), verified %llu "
               "(%u%%), compiled %llu (%u%%), to PTX %llu, diagnosed in the "
               "pipeline %llu\n",
               (unsigned long long)stats.inputs,
               (unsigned long long)stats.syntaxErrors,
               percent(stats.syntaxErrors), (unsigned long long)stats.parsed,
               percent(stats.parsed), (unsigned long long)stats.verified,
               percent(stats.verified), (unsigned long long)stats.compiled,
               percent(stats.compiled), (unsigned long long)stats.ptx,
               (unsigned long long)stats.diagnosed);
}

uint64_t hashOf(const std::string &text) {
  uint64_t hash = 1469598103934665603ull; // FNV-1a
  for (unsigned char c : text)
    hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

Options optionsFor(const std::string &text) {
  uint64_t hash = hashOf(text);
  Options options;
  options.ptx = settings.ptxEvery != 0 && hash % settings.ptxEvery == 0;
  if ((hash >> 8) % 4 == 0)
    options.debugWaits = 1 + (hash >> 12) % 2000;
  if ((hash >> 24) % 8 == 0)
    options.wgmmaLookahead = 0;
  if ((hash >> 28) % 8 == 0)
    options.storeSlots = 1 + (hash >> 32) % 4;
  if ((hash >> 36) % 32 == 0)
    options.checks = false;
  options.protocol =
      settings.protocolEvery != 0 && (hash >> 44) % settings.protocolEvery == 0;
  // The option line (gemm_fuzz::kOptionsPrefix) overrides.
  std::string prefix = gemm_fuzz::kOptionsPrefix;
  if (text.compare(0, prefix.size(), prefix) != 0)
    return options;
  std::string line =
      text.substr(prefix.size(), text.find('\n') - prefix.size());
  for (size_t at = 0; at < line.size();) {
    size_t end = line.find(' ', at);
    if (end == std::string::npos)
      end = line.size();
    std::string item = line.substr(at, end - at);
    at = end + 1;
    size_t equals = item.find('=');
    if (equals == std::string::npos)
      continue;
    std::string key = item.substr(0, equals);
    long long value = std::strtoll(item.c_str() + equals + 1, nullptr, 10);
    if (key == "ptx")
      options.ptx = value != 0;
    else if (key == "debug-waits")
      options.debugWaits = value;
    else if (key == "wgmma-lookahead")
      options.wgmmaLookahead = value;
    else if (key == "store-slots")
      options.storeSlots = value;
    else if (key == "checks")
      options.checks = value != 0;
    else if (key == "protocol")
      options.protocol = value != 0;
  }
  return options;
}

/// Collects the diagnostics of one input (printing each one formats its
/// attributes and types, which exercises the printers too).
struct Diagnostics {
  unsigned errors = 0;
  std::vector<std::string> messages;
  /// The message of the first error, without its location.
  std::string firstError;

  /// The message of the latest error.
  std::string lastPassError;

  void add(Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      if (errors++ == 0)
        firstError = diag.str();
      lastPassError = diag.str();
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    os << diag.getLocation() << ": " << diag;
    for (Diagnostic &note : diag.getNotes())
      os << "\n  note: " << note;
    if (settings.verbose)
      llvm::errs() << "gemm-fuzz: diagnostic: " << text << "\n";
    if (messages.size() < 16)
      messages.push_back(std::move(text));
  }
};

Diagnostics *current = nullptr;

[[noreturn]] void bug(const std::string &what) {
  llvm::errs() << "gemm-fuzz: BUG: " << what << "\n";
  if (current)
    for (const std::string &message : current->messages)
      llvm::errs() << "  diagnostic: " << message << "\n";
  llvm::errs().flush();
  std::abort();
}

/// Verifies the IR after every pass that succeeded: a pass must not claim
/// success and leave invalid IR.
struct VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    if (failed(verify(op)))
      bug("the IR is invalid after " + pass->getArgument().str() +
          " succeeded");
  }
};

std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

void compile(MLIRContext &ctx, ModuleOp module, const Options &options,
             Diagnostics &diags) {
  PassManager pm(&ctx, ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  pm.enableVerifier(false);
  if (settings.timing)
    pm.enableTiming();
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  if (options.ptx) {
    mlir::gemm::GemmToPTXOptions ptx;
    ptx.wgmmaLookahead = options.wgmmaLookahead;
    ptx.storeSlots = options.storeSlots;
    ptx.debugWaits = options.debugWaits;
    ptx.checks = options.checks;
    ptx.protocolCheck = options.protocol;
    ptx.protocolMaxSteps = settings.protocolSteps;
    mlir::gemm::buildGemmToPTXPipeline(pm, ptx);
  } else {
    mlir::gemm::GemmToNVVMOptions nvvm;
    nvvm.wgmmaLookahead = options.wgmmaLookahead;
    nvvm.storeSlots = options.storeSlots;
    nvvm.debugWaits = options.debugWaits;
    nvvm.checks = options.checks;
    nvvm.protocolCheck = options.protocol;
    nvvm.protocolMaxSteps = settings.protocolSteps;
    mlir::gemm::buildGemmToNVVMPipeline(pm, nvvm);
  }
  // Kernel IR written by hand (seeds from the simulator's tests) may break
  // the protocol on purpose; kernels the materializers make must not.
  bool handWritten = false;
  module.walk([&](gpu::GPUModuleOp) { handWritten = true; });
  unsigned errorsBefore = diags.errors;
  if (failed(pm.run(module))) {
    if (diags.errors == errorsBefore)
      bug("the pipeline failed without an error diagnostic");
    if (!handWritten && diags.errors > errorsBefore &&
        StringRef(diags.lastPassError).starts_with("protocol violation"))
      bug("gemm-check-protocol rejected a kernel the materializers made");
    ++stats.diagnosed;
    if (settings.verbose)
      llvm::errs() << "gemm-fuzz: outcome: diagnosed by the pipeline\n";
    return;
  }
  // Success means lowered: no gemm op is left, and with PTX every
  // gpu.module became a gpu.binary.
  module.walk([&](Operation *op) {
    if (isa<mlir::gemm::GemmDialect>(op->getDialect()))
      bug("the pipeline succeeded but left " +
          op->getName().getStringRef().str());
    if (options.ptx && isa<gpu::GPUModuleOp>(op))
      bug("the PTX pipeline succeeded but left a gpu.module");
  });
  ++stats.compiled;
  if (options.ptx)
    ++stats.ptx;
  if (settings.verbose)
    llvm::errs() << "gemm-fuzz: outcome: compiled"
                 << (options.ptx ? " to PTX" : "") << "\n";
}

/// Runs one input; false when it did not parse.
bool runOne(const std::string &text) {
  ++stats.inputs;
  Options options = optionsFor(text);
  static std::unique_ptr<MLIRContext> context;
  static uint64_t contextUses = 0;
  if (!context || ++contextUses >= settings.contextRuns) {
    context.reset();
    context = std::make_unique<MLIRContext>(*registry,
                                            MLIRContext::Threading::DISABLED);
    contextUses = 0;
  }
  MLIRContext &ctx = *context;
  Diagnostics diags;
  current = &diags;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    diags.add(diag);
    return success();
  });
  // Parsing and verifying apart, to count how many inputs get past the
  // parser (the mutator's aim) and how many are valid.
  ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module) {
    if (diags.errors == 0)
      bug("the parser rejected the input without an error diagnostic");
    if (isSyntaxError(diags.firstError))
      ++stats.syntaxErrors;
    if (settings.verbose)
      llvm::errs() << "gemm-fuzz: outcome: not parsed\n";
    current = nullptr;
    return false;
  }
  ++stats.parsed;
  if (failed(verify(*module))) {
    if (diags.errors == 0)
      bug("the verifier rejected the input without an error diagnostic");
    if (settings.verbose)
      llvm::errs() << "gemm-fuzz: outcome: not verified\n";
    current = nullptr;
    return true;
  }
  ++stats.verified;
  // What the printer writes, the parser must read back, and print the same.
  std::string printed = print(*module);
  {
    OwningOpRef<ModuleOp> again =
        parseSourceString<ModuleOp>(printed, ParserConfig(&ctx));
    if (!again) {
      bug("the printed module does not parse again:\n" + printed);
    }
    std::string reprinted = print(*again);
    if (reprinted != printed)
      bug("the module prints differently once parsed again:\n" + printed +
          "\n---- then ----\n" + reprinted);
  }
  compile(ctx, *module, options, diags);
  current = nullptr;
  return true;
}

} // namespace

// Sanitizer defaults (the environment's ASAN_OPTIONS / UBSAN_OPTIONS still
// override them). allow_user_poisoning=0: LLVM's headers, compiled here with
// ASan, poison the free space of BumpPtrAllocator slabs that Debian's
// uninstrumented libMLIR then writes into (a report that is not a bug, as in
// scripts/sanitizers.sh). detect_leaks=0: LLVM's option and pass registries
// are process-lifetime allocations.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_leaks=0";
}
extern "C" const char *__ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1";
}

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  if (const char *every = std::getenv("GEMM_FUZZ_PTX_EVERY"))
    settings.ptxEvery = std::strtoull(every, nullptr, 10);
  if (const char *verbose = std::getenv("GEMM_FUZZ_VERBOSE"))
    settings.verbose = std::strcmp(verbose, "0") != 0;
  if (const char *print = std::getenv("GEMM_FUZZ_STATS"))
    settings.stats = std::strcmp(print, "0") != 0;
  if (const char *timing = std::getenv("GEMM_FUZZ_TIMING"))
    settings.timing = std::strcmp(timing, "0") != 0;
  if (const char *every = std::getenv("GEMM_FUZZ_PROTOCOL_EVERY"))
    settings.protocolEvery = std::strtoull(every, nullptr, 10);
  if (const char *steps = std::getenv("GEMM_FUZZ_PROTOCOL_STEPS"))
    settings.protocolSteps = std::strtoull(steps, nullptr, 10);
  if (const char *runs = std::getenv("GEMM_FUZZ_CONTEXT_RUNS"))
    settings.contextRuns =
        std::max<uint64_t>(1, std::strtoull(runs, nullptr, 10));
  std::atexit(printStats);

  // The dialects the compiler's inputs and pipelines use (not every
  // upstream dialect: the fuzzer is after our code, not upstream's).
  registry = new DialectRegistry();
  registry
      ->insert<mlir::gemm::GemmDialect, arith::ArithDialect, math::MathDialect,
               scf::SCFDialect, cf::ControlFlowDialect, func::FuncDialect,
               gpu::GPUDialect, NVVM::NVVMDialect, LLVM::LLVMDialect,
               memref::MemRefDialect, vector::VectorDialect>();
  registerAllExtensions(*registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(*registry);
  registerAllToLLVMIRTranslations(*registry);

  // An LLVM fatal error is a bug found, not an exit.
  llvm::install_fatal_error_handler(
      [](void *, const char *reason, bool) {
        bug(std::string("LLVM fatal error: ") + reason);
      },
      nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Large inputs only slow the search down; the seeds are a few KB.
  if (size > 64 * 1024)
    return -1;
  // An input the parser rejects is run, but not kept in the corpus (-1):
  // mutations of such inputs mostly stay unparseable, and a corpus that
  // fills with them (their error paths are new coverage) would leave few
  // executions that get past the parser. Inputs that parse but do not
  // verify are kept, since one mutation can make them valid.
  return runOne(std::string(reinterpret_cast<const char *>(data), size)) ? 0
                                                                         : -1;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  std::mt19937_64 rng(seed);
  // One time in ten, or when the text has nothing the structured mutations
  // apply to, libFuzzer's own byte mutations (and its cross-over). libFuzzer
  // stacks up to -mutate_depth (5) mutations on an input, so a larger share
  // would leave few inputs the parser accepts.
  if (rng() % 10 != 0) {
    std::string text(reinterpret_cast<const char *>(data), size);
    // Kernel IR has no gemm.matmul or config: more tries before giving up.
    for (int tries = 0; tries < 8; ++tries) {
      std::string mutated = text;
      // Now and then several mutations at once.
      int rounds = 1 + static_cast<int>(rng() % 8 == 0) * (1 + rng() % 3);
      bool changed = false;
      for (int i = 0; i < rounds; ++i)
        changed |= gemm_fuzz::mutateText(mutated, rng);
      if (changed && mutated != text && mutated.size() <= maxSize) {
        std::memcpy(data, mutated.data(), mutated.size());
        return mutated.size();
      }
    }
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}
