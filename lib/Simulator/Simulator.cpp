//===- Simulator.cpp - Kernels of a module, runs, reference, reports ------===//

#include "gemm/Simulator/Simulator.h"
#include "Machine.h"

#include "gemm/Bundle/TestData.h"
#include "gemm/Runtime/GroupProblems.h"
#include "gemm/Runtime/GroupTable.h"
#include "gemm/Runtime/Plan.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace mlir;
using namespace mlir::gemm;
using namespace mlir::gemm::sim;

std::string Problem::toString() const {
  std::string text = "m=" + std::to_string(m) + " n=" + std::to_string(n) +
                     " k=" + std::to_string(k);
  if (batch != 1)
    text += " batch=" + std::to_string(batch);
  if (broadcast)
    text += std::string(" broadcast ") + (broadcast & 1 ? "a" : "") +
            (broadcast & 2 ? "b" : "");
  if (general()) {
    // The sizes of every group; m, n, k are unused.
    text = "general groups=";
    for (size_t g = 0; g < groupSizes.size(); ++g)
      text += (g ? "," : "") + std::to_string(groupSizes[g].m) + "x" +
              std::to_string(groupSizes[g].n) + "x" +
              std::to_string(groupSizes[g].k);
  }
  if (grouped()) {
    std::optional<std::vector<uint64_t>> rows = groupRows();
    text += rows ? " groups=" : " group offsets=";
    for (size_t i = 0, e = rows ? rows->size() : groupOffsets.size(); i < e;
         ++i)
      text += (i ? "," : "") +
              std::to_string(rows ? int64_t((*rows)[i]) : groupOffsets[i]);
  }
  return text;
}

std::optional<std::vector<uint64_t>> Problem::groupRows() const {
  if (groupOffsets.empty() || groupOffsets.front() != 0 ||
      groupOffsets.back() != static_cast<int64_t>(m) ||
      !std::is_sorted(groupOffsets.begin(), groupOffsets.end()))
    return std::nullopt;
  std::vector<uint64_t> rows;
  for (size_t g = 0; g + 1 < groupOffsets.size(); ++g)
    rows.push_back(uint64_t(groupOffsets[g + 1] - groupOffsets[g]));
  return rows;
}

const char *Violation::kindName(Kind kind) {
  switch (kind) {
  case Kind::Race:
    return "race";
  case Kind::PhaseConfusion:
    return "phase confusion";
  case Kind::Arrival:
    return "arrival mismatch";
  case Kind::Deadlock:
    return "deadlock";
  case Kind::Mask:
    return "mask outside the cluster";
  case Kind::Rule:
    return "hardware rule";
  case Kind::Unsupported:
    return "not simulated";
  }
  return "violation";
}

std::string sim::formatViolation(const Violation &violation) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "protocol violation (" << Violation::kindName(violation.kind) << ")";
  if (violation.op)
    os << " at '" << violation.op->getName() << "' (" << violation.op->getLoc()
       << ")";
  os << ": " << violation.message << "\n";
  if (!violation.context.empty())
    os << "  in " << violation.context << "\n";
  for (auto &[op, note] : violation.notes) {
    os << "  note: " << note;
    if (op)
      os << " ('" << op->getName() << "')";
    os << "\n";
  }
  if (!violation.trace.empty()) {
    os << "  trace:\n";
    for (const std::string &line : violation.trace)
      os << "    " << line << "\n";
  }
  return text;
}

void sim::emitViolation(const Violation &violation) {
  Location loc =
      violation.op ? violation.op->getLoc() : UnknownLoc::get(nullptr);
  InFlightDiagnostic diag =
      violation.op ? violation.op->emitError() : mlir::emitError(loc);
  diag << "protocol violation (" << Violation::kindName(violation.kind)
       << "): " << violation.message;
  if (!violation.context.empty())
    diag << " [" << violation.context << "]";
  for (auto &[op, note] : violation.notes)
    if (op)
      diag.attachNote(op->getLoc()) << note << " ('" << op->getName() << "')";
  if (!violation.trace.empty()) {
    std::string trace = "counterexample trace:";
    for (const std::string &line : violation.trace)
      trace += "\n  " + line;
    diag.attachNote(violation.op ? violation.op->getLoc() : loc) << trace;
  }
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

Kernel::Kernel(std::unique_ptr<KernelImage> image) : image(std::move(image)) {}
Kernel::~Kernel() = default;
Kernel::Kernel(Kernel &&) = default;
Kernel &Kernel::operator=(Kernel &&) = default;

gpu::GPUFuncOp Kernel::func() const { return image->func; }
const bundle::KernelManifest &Kernel::manifest() const {
  return image->manifest;
}

FailureOr<KernelSet> KernelSet::get(ModuleOp module, bool skipUncontracted) {
  KernelSet set;
  auto bundles = module->getAttrOfType<DictionaryAttr>("gemm.bundles");
  bool failed = false;
  module.walk([&](gpu::GPUFuncOp func) {
    if (!func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
      return;
    std::optional<bundle::KernelManifest> manifest;
    if (bundles)
      for (NamedAttribute entry : bundles) {
        auto text = dyn_cast<StringAttr>(entry.getValue());
        if (!text)
          continue;
        bundle::ParseResult parsed = bundle::parseManifestText(text.str());
        if (parsed.manifest && parsed.manifest->kernel == func.getName())
          manifest = parsed.manifest;
      }
    if (!manifest && skipUncontracted)
      return;
    if (!manifest) {
      func.emitError("kernel '")
          << func.getName()
          << "' has no launch contract in the module's gemm.bundles: the "
             "simulator launches a kernel as its manifest says (run the "
             "materialize passes on a gemm.matmul)";
      failed = true;
      return;
    }
    set.list.push_back(
        Kernel(std::make_unique<KernelImage>(func, std::move(*manifest))));
  });
  if (failed)
    return failure();
  return set;
}

namespace {

class RandomChoices : public ChoiceSource {
public:
  explicit RandomChoices(uint64_t seed) : engine(seed) {}
  size_t choose(size_t count) override {
    return std::uniform_int_distribution<size_t>(0, count - 1)(engine);
  }

private:
  std::mt19937_64 engine;
};

std::string scheduleName(const RunOptions &options, uint64_t seed) {
  switch (options.schedule) {
  case ScheduleMode::Deterministic:
    return "deterministic schedule";
  case ScheduleMode::Random:
    return "random schedule, seed " + std::to_string(seed);
  case ScheduleMode::Exhaustive:
    return "exhaustive exploration, execution " + std::to_string(seed + 1);
  }
  return "";
}

/// The user's epilogue region of the kernel (every staging op carries a
/// copy of it), or null.
Region *findEpilogue(gpu::GPUFuncOp func) {
  Region *region = nullptr;
  func.walk([&](Operation *op) {
    if (region)
      return;
    if (auto store = dyn_cast<AccumStoreSmemOp>(op))
      if (!store.getEpilogue().empty())
        region = &store.getEpilogue();
    if (auto store = dyn_cast<TmemStoreSmemOp>(op))
      if (!store.getEpilogue().empty())
        region = &store.getEpilogue();
    if (auto store = dyn_cast<AccumStoreDirectOp>(op))
      if (!store.getEpilogue().empty())
        region = &store.getEpilogue();
  });
  return region;
}

/// Input element (row, col) of batch entry `entry` of `matrix` in logical
/// terms (A: M x K, B: N x K), as gemm/Bundle/TestData.h defines it by its
/// stored position.
int inputAt(const runtime::MatrixPlan &matrix, uint64_t seed, uint64_t entry,
            uint64_t row, uint64_t col) {
  if (matrix.transposed())
    std::swap(row, col);
  return bundle::smallIntegerFor(
      matrix.dtype,
      bundle::storedSmallIntegerAt(seed, matrix.tensor,
                                   matrix.storedBatches() == 1 ? 0 : entry,
                                   matrix.outer, row, col));
}

/// The scale factors the reference applies: each a function of the
/// element's row (A: m, B: n) and K index, read from the scale buffers the
/// kernel read (gemm/Bundle/TestData.h's powers of two), in the layouts of
/// Plan.cpp's planScale: A's 1 x 128 blocks k-block-major (ld = M), B's
/// 128 x 128 blocks row-major (ld = k-blocks).
struct ReferenceScales {
  const float *a = nullptr, *b = nullptr;
  bundle::ScaleGranularity aKind = bundle::ScaleGranularity::Tensor,
                           bKind = bundle::ScaleGranularity::Tensor;
  uint64_t aLd = 0, bLd = 0;
  std::optional<float> output;

  static double at(const float *scales, bundle::ScaleGranularity kind, bool isA,
                   uint64_t ld, uint64_t row, uint64_t k) {
    if (!scales)
      return 1.0;
    switch (kind) {
    case bundle::ScaleGranularity::Tensor:
      return scales[0];
    case bundle::ScaleGranularity::Row:
    case bundle::ScaleGranularity::Col:
      return scales[row];
    case bundle::ScaleGranularity::Block:
      return isA ? scales[k / 128 * ld + row]
                 : scales[row / 128 * ld + k / 128];
    }
    return 1.0;
  }
  double aAt(uint64_t m, uint64_t k) const {
    return at(a, aKind, true, aLd, m, k);
  }
  double bAt(uint64_t n, uint64_t k) const {
    return at(b, bKind, false, bLd, n, k);
  }
};

ReferenceScales referenceScales(Machine &m) {
  ReferenceScales scales;
  for (size_t i = 0; i < m.plan.scales.size(); ++i) {
    const runtime::ScalePlan &scale = m.plan.scales[i];
    if (scale.amax)
      continue;
    const float *values = reinterpret_cast<const float *>(
        m.global[m.scaleBuffers[i]].memory.bytes.data());
    switch (scale.tensor) {
    case bundle::Tensor::A:
      scales.a = values;
      scales.aKind = scale.granularity;
      scales.aLd = scale.cols;
      break;
    case bundle::Tensor::B:
      scales.b = values;
      scales.bKind = scale.granularity;
      scales.bLd = scale.cols;
      break;
    case bundle::Tensor::C:
      scales.output = values[0];
      break;
    }
  }
  return scales;
}

/// The group of each row of A and C of a grouped problem (B's entry for the
/// row), or -1 for a row no group owns, which the kernel must not write:
/// every row when an offset is invalid (the group table's error, by the
/// runtime's rule, grouped::groupRows). Empty when not grouped.
std::vector<int64_t> rowGroups(const Problem &problem) {
  const std::vector<int64_t> &offsets = problem.groupOffsets;
  if (offsets.empty())
    return {};
  std::vector<int64_t> groups(problem.m, -1);
  for (size_t g = 0; g + 1 < offsets.size(); ++g)
    if (!runtime::grouped::groupRows(offsets[g], offsets[g + 1], problem.m)
             .valid)
      return groups;
  for (size_t g = 0; g + 1 < offsets.size(); ++g)
    for (int64_t row = offsets[g]; row < offsets[g + 1]; ++row)
      groups[row] = static_cast<int64_t>(g);
  return groups;
}

/// What both comparisons of C read: the kernel's A, B and C, C's element
/// codec and size, the epilogue region, C as the kernel left it, a thread
/// to evaluate the epilogue on and the inputs' seed; sets the dump's type.
struct ComparedRun {
  const runtime::MatrixPlan &a, &b, &c;
  const ElementCodec *codec;
  Region *epilogue;
  unsigned bytes;
  const std::vector<uint8_t> &out;
  Thread &scratch;
  uint64_t seed;

  ComparedRun(Machine &m, RunResult &result)
      : a(m.plan.kernelMatrix(bundle::Tensor::A)),
        b(m.plan.kernelMatrix(bundle::Tensor::B)),
        c(m.plan.kernelMatrix(bundle::Tensor::C)), codec(codecOf(m)),
        epilogue(findEpilogue(m.kernel.func)), bytes(codec->bytes()),
        out(m.global[m.bufferC].memory.bytes), scratch(m.threads.front()),
        seed(m.options.inputSeed) {
    result.c.dtype = m.plan.matrix(bundle::Tensor::C).dtype;
  }

private:
  static const ElementCodec *codecOf(const Machine &m) {
    std::string error;
    return ElementCodec::get(m.kernel.cType, error);
  }
};

/// Compares C with the exact reference (the sum in double of the products
/// times their scale factors, then the epilogue region or a rounding to
/// C's type, for fp8 times the output scale first with saturation), bit
/// for bit, and the amax (the largest |value| before the output scale)
/// with the kernel's; dumps C as stored (gemm/Bundle/TestData.h). A
/// grouped problem's row takes B's entry of its group; a row of no group
/// must still hold the poison written before the run.
void compareWithReference(Machine &m, RunResult &result) {
  const KernelImage &kernel = m.kernel;
  const auto &[a, b, c, codec, epilogue, bytes, out, scratch, seed] =
      ComparedRun(m, result);
  const runtime::Problem &problem = m.plan.problem;
  result.c.rows = c.batch * c.outer;
  result.c.cols = c.inner;
  result.c.bytes.resize(result.c.rows * result.c.cols * bytes);
  ReferenceScales scales = referenceScales(m);
  bool integerOut = kernel.cType.isInteger(32);
  float amax = 0.0f;
  std::vector<double> aRow(problem.k);
  std::vector<int64_t> groups = rowGroups(m.options.problem);
  uint64_t unwritten = poisonBits(bytes);
  for (uint64_t entry = 0; entry < problem.batch; ++entry)
    for (uint64_t row = 0; row < problem.m; ++row) {
      bool owned = groups.empty() || groups[row] >= 0;
      uint64_t entryB = groups.empty() ? entry : uint64_t(groups[row]);
      for (uint64_t i = 0; i < problem.k && owned; ++i)
        aRow[i] = inputAt(a, seed, entry, row, i) * scales.aAt(row, i);
      for (uint64_t col = 0; col < problem.n; ++col) {
        double sum = 0;
        for (uint64_t i = 0; i < problem.k && owned; ++i)
          sum += aRow[i] * double(inputAt(b, seed, entryB, col, i)) *
                 scales.bAt(col, i);
        uint64_t expected;
        float value = static_cast<float>(sum);
        if (!owned) {
          expected = unwritten;
        } else if (integerOut) {
          // s32 sums, exact (wrapping modulo 2^32 as the accumulator).
          expected = codec->encode(
              accumulate(AccumulatorType::get(kernel.cType.getContext(), 64, 8,
                                              kernel.cType),
                         0.0, sum));
        } else {
          if (epilogue) {
            SimValue in;
            in.f = value;
            value =
                static_cast<float>(evalRegion(m, scratch, *epilogue, {in}).f);
          }
          amax = std::max(amax, std::fabs(value));
          expected = scales.output ? codec->encode(value * *scales.output)
                                   : codec->encode(value);
        }
        // Where C stores it: row-major (m, n) or column-major (n, m).
        uint64_t outer = c.transposed() ? col : row;
        uint64_t inner = c.transposed() ? row : col;
        const uint8_t *at =
            &out[(entry * c.batchStride + outer * c.ld + inner) * bytes];
        uint64_t got = codec->load(at);
        std::memcpy(
            &result.c
                 .bytes[((entry * c.outer + outer) * c.inner + inner) * bytes],
            at, bytes);
        if (got == expected)
          continue;
        if (result.mismatches++ < 8) {
          char line[192];
          std::string where =
              problem.batch > 1 ? "[" + std::to_string(entry) + "]" : "";
          if (!owned)
            std::snprintf(line, sizeof(line),
                          "C%s[%llu][%llu] = %g (bits 0x%llx), expected no "
                          "write (no group owns the row; the poison 0x%llx)",
                          where.c_str(), static_cast<unsigned long long>(row),
                          static_cast<unsigned long long>(col),
                          codec->decode(got),
                          static_cast<unsigned long long>(got),
                          static_cast<unsigned long long>(expected));
          else
            std::snprintf(
                line, sizeof(line),
                "C%s[%llu][%llu] = %g (bits 0x%llx), expected %g "
                "(bits 0x%llx)",
                where.c_str(), static_cast<unsigned long long>(row),
                static_cast<unsigned long long>(col), codec->decode(got),
                static_cast<unsigned long long>(got), codec->decode(expected),
                static_cast<unsigned long long>(expected));
          result.mismatchReport.push_back(line);
        }
      }
    }
  if (m.amaxBuffer >= 0) {
    float got;
    std::memcpy(&got, m.global[m.amaxBuffer].memory.bytes.data(), 4);
    result.amax = got;
    uint32_t gotBits, expectedBits;
    std::memcpy(&gotBits, &got, 4);
    std::memcpy(&expectedBits, &amax, 4);
    if (gotBits != expectedBits) {
      ++result.mismatches;
      char line[128];
      std::snprintf(line, sizeof(line),
                    "amax = %g (bits 0x%x), expected %g (bits 0x%x)",
                    static_cast<double>(got), gotBits,
                    static_cast<double>(amax), expectedBits);
      result.mismatchReport.push_back(line);
    }
  }
}

/// compareWithReference for a general grouped problem. The buffers are
/// gemm-runner's: one line of elements per operand, filled by stored
/// position; group g's A, B and C lie at the packing's offsets with its
/// leading dimensions (runtime::general::packGroups). Each group with tiles
/// is compared with its own product (its K_g, in double, then the epilogue
/// region and the rounding to C's type); every other element of C (line
/// padding, the groups without tiles, all of C when the table holds an
/// error: the kernel must write nothing) must still hold the poison. C is
/// dumped as the runner dumps it: the whole line, one row.
void compareGeneral(Machine &m, RunResult &result) {
  namespace general = runtime::general;
  const auto &[a, b, c, codec, epilogue, bytes, out, scratch, seed] =
      ComparedRun(m, result);
  uint64_t elements = c.inner;
  result.c.rows = 1;
  result.c.cols = elements;
  result.c.bytes.assign(out.begin(), out.begin() + elements * bytes);
  auto input = [&](const runtime::MatrixPlan &matrix, uint64_t position) {
    return bundle::smallIntegerFor(
        matrix.dtype,
        bundle::storedSmallIntegerAt(seed, matrix.tensor, 0, 1, 0, position));
  };
  // The expected bits of every element of C, and which group wrote it.
  uint64_t unwritten = poisonBits(bytes);
  std::vector<uint64_t> expected(elements, unwritten);
  std::vector<int64_t> owner(elements, -1);
  std::vector<std::pair<uint64_t, uint64_t>> where(elements);
  const general::GroupLayouts &layouts = m.plan.groupLayouts;
  const general::GroupPacking &packing = m.plan.groupPacking;
  const std::vector<general::GroupSize> &sizes = m.plan.problem.groupSizes;
  bool writes = m.generalError == 0;
  if (!writes)
    result.refusedGroups = general::describeTableError(
        m.generalError, m.generalReason, m.plan.problem.groupSizes.size());
  for (size_t g = 0; g < sizes.size() && writes; ++g) {
    const general::GroupSize &size = sizes[g];
    if (size.m <= 0 || size.n <= 0)
      continue;
    uint64_t mg = size.m, ng = size.n, kg = size.k;
    const std::array<uint64_t, 3> &at = packing.offsets[g],
                                  &ld = packing.lds[g];
    std::vector<double> aRow(kg);
    for (uint64_t row = 0; row < mg; ++row) {
      for (uint64_t i = 0; i < kg; ++i)
        aRow[i] = input(
            a, at[0] + (layouts.aColumns ? i * ld[0] + row : row * ld[0] + i));
      for (uint64_t col = 0; col < ng; ++col) {
        double sum = 0;
        for (uint64_t i = 0; i < kg; ++i)
          sum += aRow[i] *
                 double(input(b, at[1] + (layouts.bRows ? i * ld[1] + col
                                                        : col * ld[1] + i)));
        float value = static_cast<float>(sum);
        if (epilogue) {
          SimValue in;
          in.f = value;
          value = static_cast<float>(evalRegion(m, scratch, *epilogue, {in}).f);
        }
        uint64_t position =
            at[2] + (layouts.cColumns ? col * ld[2] + row : row * ld[2] + col);
        expected[position] = codec->encode(value);
        owner[position] = static_cast<int64_t>(g);
        where[position] = {row, col};
      }
    }
  }
  for (uint64_t position = 0; position < elements; ++position) {
    uint64_t got = codec->load(&out[position * bytes]);
    if (got == expected[position])
      continue;
    if (result.mismatches++ >= 8)
      continue;
    char line[256];
    if (owner[position] < 0)
      std::snprintf(line, sizeof(line),
                    "C element %llu = %g (bits 0x%llx), expected no write (%s; "
                    "the poison 0x%llx)",
                    static_cast<unsigned long long>(position),
                    codec->decode(got), static_cast<unsigned long long>(got),
                    writes ? "no group's C holds it"
                           : "the group table holds an error",
                    static_cast<unsigned long long>(unwritten));
    else
      std::snprintf(line, sizeof(line),
                    "C_%lld[%llu][%llu] = %g (bits 0x%llx), expected %g "
                    "(bits 0x%llx)",
                    static_cast<long long>(owner[position]),
                    static_cast<unsigned long long>(where[position].first),
                    static_cast<unsigned long long>(where[position].second),
                    codec->decode(got), static_cast<unsigned long long>(got),
                    codec->decode(expected[position]),
                    static_cast<unsigned long long>(expected[position]));
    result.mismatchReport.push_back(line);
  }
}

} // namespace

RunResult Kernel::run(const RunOptions &options) const {
  RunResult result;
  const KernelImage &kernel = *image;
  if (kernel.unsupported) {
    result.violation = kernel.unsupported;
    return result;
  }
  runtime::Problem problem;
  problem.m = options.problem.m;
  problem.n = options.problem.n;
  problem.k = options.problem.k;
  problem.batch = options.problem.batch;
  // A grouped problem: G groups over the m rows of A and C. The offsets
  // themselves go into the group table (Machine::setUp), not to the
  // planner, which refuses invalid ones: the kernel must cope with them.
  if (options.problem.grouped())
    problem.groups = options.problem.groupOffsets.size() - 1;
  // A general grouped problem: the groups' sizes (M, N, K unused). Their
  // records are checked by the table's builder alone, as the prep kernel
  // checks them on the GPU (gemm-runner --group-checks device): a bad
  // record must make the kernel write nothing.
  if (options.problem.general()) {
    problem.m = problem.n = problem.k = 0;
    problem.groups = options.problem.groupSizes.size();
    problem.groupSizes = options.problem.groupSizes;
    problem.groupChecksOnDevice = true;
  }
  runtime::PlanOptions planOptions;
  for (bundle::Tensor tensor : {bundle::Tensor::A, bundle::Tensor::B})
    if (options.problem.broadcast & (1u << static_cast<unsigned>(tensor)))
      planOptions.batchStrides[static_cast<size_t>(tensor)] = 0;
  // The simulator's matrices are allocated with padded rows (no staging).
  planOptions.unaligned = runtime::UnalignedPolicy::Pad;
  planOptions.persistentCtaCapacity = options.sms;
  std::string error;
  std::optional<runtime::LaunchPlan> plan =
      runtime::tryPlanLaunch(kernel.manifest, problem, planOptions, error);
  if (!plan) {
    Violation v;
    v.kind = Violation::Kind::Unsupported;
    v.op = kernel.func;
    v.message = "the launch cannot be planned: " + error;
    result.violation = v;
    return result;
  }
  std::string context = "kernel " + kernel.manifest.kernel + ", " +
                        options.problem.toString() + ", grid " +
                        std::to_string(plan->grid[0]) + " CTAs of " +
                        std::to_string(plan->block[0]) + " threads";
  auto runOnce = [&](ChoiceSource *choices, uint64_t seed) -> bool {
    Machine machine(kernel, options, *plan, choices);
    machine.run();
    result.stats.steps += machine.steps;
    result.stats.executions += 1;
    result.stats.ctas = plan->grid[0];
    result.stats.threads = static_cast<uint32_t>(machine.threads.size());
    result.stats.stepLimit |= machine.stepLimit;
    if (machine.violation) {
      result.violation = std::move(machine.violation);
      result.violation->context = context + ", " + scheduleName(options, seed);
      return false;
    }
    // Stopped at a state explored before: nothing to compare.
    if (machine.pruned)
      return true;
    if (options.data == DataMode::Full) {
      result.mismatches = 0;
      result.mismatchReport.clear();
      if (plan->general)
        compareGeneral(machine, result);
      else
        compareWithReference(machine, result);
      if (result.mismatches)
        return false;
    }
    return true;
  };
  switch (options.schedule) {
  case ScheduleMode::Deterministic:
    runOnce(nullptr, 0);
    break;
  case ScheduleMode::Random:
    for (uint32_t i = 0; i < std::max<uint32_t>(options.runs, 1); ++i) {
      RandomChoices choices(options.scheduleSeed + i);
      if (!runOnce(&choices, options.scheduleSeed + i))
        break;
    }
    break;
  case ScheduleMode::Exhaustive:
    explore(kernel, options, *plan, result, runOnce);
    break;
  }
  return result;
}

std::vector<Problem> Kernel::coverageProblems(uint32_t sms) const {
  const bundle::KernelManifest &manifest = image->manifest;
  uint64_t bm = manifest.tile[0], bn = manifest.tile[1], bk = manifest.tile[2];
  std::array<uint32_t, 2> shape = manifest.clusterTileShape();
  uint64_t cm = shape[0], cn = shape[1];
  uint64_t clusterSize = manifest.cluster[0];
  uint64_t resident = std::max<uint64_t>(sms / clusterSize, 1);
  // k-blocks that fill the operand ring once.
  uint64_t ring = 2;
  bool splitK = false, streamK = false;
  int64_t kGroup = 1;
  image->func.walk([&](Operation *op) {
    splitK |= isa<SplitKRangeOp>(op);
    streamK |= isa<StreamKPlanOp>(op);
  });
  image->func.walk([&](MmaSm100Op) { kGroup = 0; });
  if (!image->pipelines.empty())
    ring = image->pipelines.front().type.getStages();
  if (kGroup == 0) {
    // SM100: a ring stage holds k_group k-blocks (A ring slots / stages).
    auto ringA = cast<SmemBufferType>(image->plan.getResultTypes()[0]);
    ring = ringA.getStages();
  }
  uint64_t tileM = bm * cm, tileN = bn * cn;
  std::vector<Problem> problems;
  if (manifest.hasGeneralGroups()) {
    // General grouped kernels (no split-K, stream-K or batch): every group
    // its own M, N, K, packed as gemm-runner packs them (odd groups' A and
    // B lines padded).
    auto general = [](std::vector<runtime::general::GroupSize> sizes) {
      Problem problem;
      problem.groupSizes = std::move(sizes);
      return problem;
    };
    int64_t um = int64_t(tileM), un = int64_t(tileN), k = int64_t(bk);
    // C's lines are whole 16-byte chunks (general::storesWholeChunks): the
    // sizes along them are multiples of 8, the others odd.
    bool cColumns = manifest.layouts.c == bundle::Layout::Col;
    int64_t oddM = cColumns ? 0 : 1, oddN = cColumns ? 1 : 0;
    // More units than resident clusters (the persistent loop wraps across
    // groups), a group with M = 0 and one with N = 0 between them, more
    // k-blocks than ring stages, different N and K per group.
    problems.push_back(general({{um * int64_t(resident) + 8 - 7 * oddM,
                                 un + oddN, k * int64_t(ring + 2)},
                                {0, un, k},
                                {40, 0, k},
                                {um - 8 + oddM, un + 24 - oddN, k + 8}}));
    // Edge tiles in M and N, a K tail, K shorter than one k-block.
    problems.push_back(general(
        {{40 + oddM, 40 + oddN, 8}, {um + 16 + oddM, 24 - oddN, k + 8}}));
    // A bad record (K = 0 with tiles): the table's error, U = 0, every
    // CTA finds no unit.
    problems.push_back(general({{64, un, k}, {64, un, 0}}));
    return problems;
  }
  if (manifest.hasGroups()) {
    // Grouped kernels (no split-K, stream-K or batch): a row unit is tileM
    // rows of one group. Empty groups and groups that are not a multiple
    // of the unit (their last tiles cross the group's end: the masked
    // stores) in every problem.
    auto grouped = [&](std::vector<uint64_t> rows, uint64_t n, uint64_t k) {
      Problem problem;
      problem.groupOffsets = runtime::grouped::offsetsOf(rows);
      problem.m = static_cast<uint64_t>(problem.groupOffsets.back());
      problem.n = n;
      problem.k = k;
      return problem;
    };
    // More row units than resident clusters (2 resident + 1: the persistent
    // loop wraps, across groups) and more k-blocks than ring stages.
    problems.push_back(grouped({tileM * resident + 1, 0, tileM * resident - 7},
                               tileN, bk * (ring + 2)));
    // Edge tiles in N, a K tail, a group shorter than a consumer's rows,
    // one of a unit and a few rows.
    problems.push_back(grouped({40, 0, tileM + 24}, tileN + 24, bk + 8));
    // K shorter than one k-block; one group, one tile.
    problems.push_back(grouped({40}, 40, 8));
    // Invalid offsets (decreasing at group 1): the table's R is 0 and its
    // error 2, every CTA finds no unit.
    Problem invalid = grouped({64, 0, 64}, tileN, bk);
    invalid.groupOffsets = {0, 64, 32, 128};
    problems.push_back(invalid);
    return problems;
  }
  // More tile units than resident clusters (the persistent loop and the CLC
  // grid wrap) and more k-blocks than ring stages (the ring wraps within a
  // tile and across tiles).
  problems.push_back({tileM * (2 * resident + 1), tileN, bk * (ring + 2)});
  // Edge tiles in M and N, a K tail.
  problems.push_back({tileM + 17, tileN + 24, bk + 8});
  // K shorter than one k-block; one tile.
  problems.push_back({40, 40, 8});
  if (splitK) {
    // Fewer k-blocks than splits: some splits have empty ranges.
    uint64_t splits = std::max<uint32_t>(manifest.workUnitsPerTile, 2);
    problems.push_back({tileM * (2 * resident + 1), tileN, bk * (splits - 1)});
    problems.push_back({tileM * 2, tileN, bk * (2 * splits + 1)});
  }
  if (streamK) {
    // A partial last wave after a whole one, its unit shared by the
    // resident clusters, and fewer units than CTAs (every unit shared).
    problems.push_back({tileM * (resident + 1), tileN, bk * 5});
    problems.push_back({tileM, tileN, bk * 3});
    // A partial last wave that is not shared (one k-block: nothing to
    // split), computed whole after a whole wave.
    problems.push_back({tileM * (resident + 1), tileN, bk});
  }
  bool batched = llvm::any_of(manifest.params, [](const bundle::Param &p) {
    return p.kind == bundle::ParamKind::ProblemSize &&
           p.dim == bundle::ProblemDim::Batch;
  });
  if (batched) {
    // The persistent loop over entries x tiles: edge tiles in every entry,
    // more units than resident clusters; one tile per entry (split-K and
    // stream-K units cross entries) with a broadcast A.
    problems.push_back({tileM + 17, tileN + 24, bk + 8, 3});
    problems.push_back({tileM, tileN, bk * 3, 3, /*broadcast=*/1});
  }
  return problems;
}
