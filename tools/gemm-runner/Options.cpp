//===- Options.cpp - gemm-runner's command line ---------------------------===//

#include "Options.h"

#include "gemm/Dispatch/KernelConfig.h"
#include "gemm/Runtime/Error.h"
#include "gemm/Runtime/GroupProblems.h"
#include "gemm/Runtime/GroupTable.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>

namespace gemm::runner {
namespace {

using runtime::Error;
using runtime::ErrorKind;
using runtime::Problem;

[[noreturn]] void usageError(const std::string &message) {
  throw Error(ErrorKind::Usage, message);
}

uint64_t parseUInt(std::string_view text, const std::string &what, uint64_t min,
                   uint64_t max = UINT64_MAX) {
  uint64_t value = 0;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min ||
      value > max)
    usageError(what + ": expected an integer " +
               (max == UINT64_MAX ? ">= " + std::to_string(min)
                                  : "in " + std::to_string(min) + ".." +
                                        std::to_string(max)) +
               ", got '" + std::string(text) + "'");
  return value;
}

double parsePositive(const std::string &text, const std::string &what) {
  char *end = nullptr;
  errno = 0;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !(value > 0))
    usageError(what + ": expected a positive number, got '" + text + "'");
  return value;
}

std::string readShapesFile(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    usageError("--shapes " + path + ": cannot read: " + std::strerror(errno));
  return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

std::vector<Problem> parseShapes(std::string_view text,
                                 const std::string &name) {
  std::vector<Problem> problems;
  std::istringstream in{std::string(text)};
  int lineNumber = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineNumber;
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    std::vector<std::string> words{std::istream_iterator<std::string>(fields),
                                   {}};
    if (words.empty())
      continue;
    std::string where = name + ":" + std::to_string(lineNumber);
    if (words.size() != 3 && words.size() != 4)
      usageError(where + ": expected 'M N K' or 'M N K BATCH', got '" + line +
                 "'");
    Problem p;
    p.m = parseUInt(words[0], where + ": M", 1);
    p.n = parseUInt(words[1], where + ": N", 1);
    p.k = parseUInt(words[2], where + ": K", 1);
    if (words.size() == 4)
      p.batch = parseUInt(words[3], where + ": BATCH", 1);
    problems.push_back(p);
  }
  if (problems.empty())
    usageError(name + ": no shapes (expected lines 'M N K [BATCH]')");
  return problems;
}

Options parseCommandLine(const std::vector<std::string> &args) {
  Options options;
  std::map<std::string, std::string> values;
  std::vector<std::string> positional;
  static const char *const flags[] = {
      "--check",   "--bench", "--cold-l2", "--pad-leading-dims",
      "--dry-run", "--help",  "-h",        "--probe"};
  static const char *const valued[] = {"--m",
                                       "--n",
                                       "--k",
                                       "--batch",
                                       "--shapes",
                                       "--reference",
                                       "--seed",
                                       "--tolerance",
                                       "--warmup",
                                       "--iters",
                                       "--vs",
                                       "--json",
                                       "--timeout-ms",
                                       "--sm-count",
                                       "--device",
                                       "--unaligned",
                                       "--library",
                                       "--dtype",
                                       "--out-dtype",
                                       "--quant",
                                       "--layout",
                                       "--batch-strides",
                                       "--realign",
                                       "--inputs",
                                       "--dump-c",
                                       "--expect-c",
                                       "--groups",
                                       "--group-problems",
                                       "--group-checks",
                                       "--timing"};
  auto isOneOf = [](const std::string &name, const auto &list) {
    for (const char *entry : list)
      if (name == entry)
        return true;
    return false;
  };

  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') {
      positional.push_back(arg);
      continue;
    }
    std::string name = arg, value;
    bool inlineValue = false;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      inlineValue = true;
    }
    if (isOneOf(name, flags)) {
      if (inlineValue)
        usageError(name + " takes no value");
      values[name] = "";
      continue;
    }
    if (!isOneOf(name, valued))
      usageError("unknown option '" + name + "' (see --help)");
    if (!inlineValue) {
      if (i + 1 >= args.size())
        usageError(name + " needs a value");
      value = args[++i];
    }
    if (values.count(name))
      usageError(name + " given twice");
    values[name] = value;
  }

  auto has = [&](const char *name) { return values.count(name) != 0; };
  if (has("--help") || has("-h")) {
    options.help = true;
    return options;
  }
  if (has("--probe")) {
    options.probe = true;
    if (has("--device"))
      options.device = int(parseUInt(values["--device"], "--device", 0,
                                     std::numeric_limits<int>::max()));
    return options;
  }
  if (has("--library")) {
    if (!positional.empty())
      usageError("--library picks the bundle: give no bundle as well ('" +
                 positional[0] + "')");
    if (has("--shapes"))
      usageError("--library takes one problem (--m --n --k): the kernel is "
                 "picked for it");
    options.libraryDir = values["--library"];
  } else if (positional.size() != 1) {
    usageError(positional.empty()
                   ? "no bundle given (usage: gemm-runner BUNDLE.json --m M "
                     "--n N --k K ..., or --library DIR; see --help)"
                   : "expected one bundle, got '" + positional[0] + "' and '" +
                         positional[1] + "'");
  } else {
    options.bundlePath = positional[0];
  }
  if (has("--dtype")) {
    if (!has("--library"))
      usageError("--dtype applies to --library (a bundle has its own types)");
    auto type = bundle::parseEnum<bundle::DType>(values["--dtype"]);
    if (!type)
      usageError("--dtype: expected one of " +
                 bundle::spellingList<bundle::DType>() + ", got '" +
                 values["--dtype"] + "'");
    options.inType = *type;
  }
  if (has("--out-dtype")) {
    if (!has("--library"))
      usageError("--out-dtype applies to --library (a bundle has its own "
                 "types)");
    auto type = bundle::parseEnum<bundle::DType>(values["--out-dtype"]);
    if (!type)
      usageError("--out-dtype: expected one of " +
                 bundle::spellingList<bundle::DType>() + ", got '" +
                 values["--out-dtype"] + "'");
    options.outType = *type;
  }
  if (has("--quant")) {
    if (!has("--library"))
      usageError("--quant applies to --library (a bundle has its own scales)");
    options.quant = values["--quant"];
  }
  if (has("--layout")) {
    if (!has("--library"))
      usageError("--layout applies to --library (a bundle's layouts are in "
                 "its manifest)");
    std::string error;
    auto layouts = dispatch::parseLayoutTriple(values["--layout"], error);
    if (!layouts)
      usageError("--layout: " + error);
    options.layouts = *layouts;
  }

  bool sized = has("--m") || has("--n") || has("--k") || has("--batch");
  if (sized && has("--shapes"))
    usageError("give the problem either with --m/--n/--k or with --shapes, "
               "not both");
  if (has("--group-checks") && !has("--group-problems"))
    usageError("--group-checks applies to --group-problems");
  if (has("--group-problems")) {
    // A general grouped problem: every group its own M, N, K.
    if (sized || has("--shapes") || has("--groups"))
      usageError("--group-problems gives every group's M, N and K: give it "
                 "without --m, --n, --k, --batch, --shapes or --groups");
    Problem p;
    p.groupSizes =
        runtime::general::parseGroupProblems(values["--group-problems"]);
    p.groups = p.groupSizes.size();
    if (has("--group-checks")) {
      const std::string &where = values["--group-checks"];
      if (where != "host" && where != "device")
        usageError("--group-checks: expected host (the runner refuses bad "
                   "records before launching, the default) or device (only "
                   "the prep kernel checks them), got '" +
                   where + "'");
      p.groupChecksOnDevice = where == "device";
    }
    options.problems.push_back(p);
  } else if (has("--groups")) {
    // A grouped problem: M is the sum of the groups' rows.
    if (has("--m") || has("--batch") || has("--shapes"))
      usageError("--groups gives the rows of every group (M is their sum): "
                 "give it with --n and --k, not with --m, --batch or "
                 "--shapes");
    for (const char *dim : {"--n", "--k"})
      if (!has(dim))
        usageError(std::string("missing ") + dim +
                   " (a grouped problem is --groups SPEC --n N --k K)");
    std::vector<uint64_t> rows =
        runtime::grouped::parseGroups(values["--groups"]);
    Problem p;
    p.n = parseUInt(values["--n"], "--n", 1);
    p.k = parseUInt(values["--k"], "--k", 1);
    p.groups = rows.size();
    p.groupOffsets = runtime::grouped::offsetsOf(rows);
    p.m = uint64_t(p.groupOffsets.back());
    if (p.m == 0)
      usageError("--groups " + values["--groups"] +
                 ": every group is empty (M = 0); give at least one row");
    options.problems.push_back(p);
  } else if (has("--shapes")) {
    const std::string &path = values["--shapes"];
    options.problems = parseShapes(readShapesFile(path), path);
  } else {
    for (const char *dim : {"--m", "--n", "--k"})
      if (!has(dim))
        usageError(std::string("missing ") + dim +
                   " (give --m M --n N --k K, or --shapes FILE)");
    Problem p;
    p.m = parseUInt(values["--m"], "--m", 1);
    p.n = parseUInt(values["--n"], "--n", 1);
    p.k = parseUInt(values["--k"], "--k", 1);
    if (has("--batch"))
      p.batch = parseUInt(values["--batch"], "--batch", 1);
    options.problems.push_back(p);
  }

  if (has("--batch-strides")) {
    if (!has("--batch") && !has("--shapes"))
      usageError("--batch-strides applies to batched problems (--batch B)");
    std::stringstream list(values["--batch-strides"]);
    std::vector<std::string> items;
    for (std::string item; std::getline(list, item, ',');)
      items.push_back(item);
    if (items.size() != 3)
      usageError("--batch-strides: expected three strides of A, B and C in "
                 "elements ('p' for packed), e.g. 0,p,p to broadcast A, got '" +
                 values["--batch-strides"] + "'");
    for (size_t i = 0; i < 3; ++i)
      if (items[i] != "p")
        options.batchStrides[i] = parseUInt(
            items[i], std::string("--batch-strides: ") + "abc"[i] + "'s stride",
            0);
  }
  options.check = has("--check");
  options.bench = has("--bench");
  options.coldL2 = has("--cold-l2");
  if (has("--timing")) {
    std::optional<runtime::BenchTiming> parsed =
        runtime::parseBenchTiming(values["--timing"]);
    if (!parsed)
      usageError("--timing: expected gpu or call, got '" + values["--timing"] +
                 "'");
    options.timing = *parsed;
  }
  if (has("--unaligned")) {
    const std::string &policy = values["--unaligned"];
    std::optional<runtime::UnalignedPolicy> parsed =
        runtime::parseUnalignedPolicy(policy);
    if (!parsed)
      usageError("--unaligned: expected stage, pad or reject, got '" + policy +
                 "'");
    options.unaligned = *parsed;
  }
  if (has("--realign")) {
    std::optional<runtime::RealignPolicy> parsed =
        runtime::parseRealignPolicy(values["--realign"]);
    if (!parsed)
      usageError("--realign: expected auto, always or never, got '" +
                 values["--realign"] + "'");
    options.realign = *parsed;
  }
  if (has("--pad-leading-dims")) {
    if (has("--unaligned") &&
        options.unaligned != runtime::UnalignedPolicy::Pad)
      usageError("--pad-leading-dims means --unaligned pad, which contradicts "
                 "--unaligned " +
                 values["--unaligned"]);
    options.unaligned = runtime::UnalignedPolicy::Pad;
  }
  options.dryRun = has("--dry-run");
  if (has("--vs")) {
    if (values["--vs"] != "cublas")
      usageError("--vs: expected 'cublas', got '" + values["--vs"] + "'");
    options.vsCublas = true;
  }
  if (options.vsCublas || options.coldL2 || has("--timing"))
    options.bench = true;
  if (!options.check && !options.bench)
    options.check = true;

  if (has("--reference")) {
    const std::string &mode = values["--reference"];
    if (mode == "auto")
      options.reference = runtime::ReferenceMode::Auto;
    else if (mode == "cublas")
      options.reference = runtime::ReferenceMode::Cublas;
    else if (mode == "naive")
      options.reference = runtime::ReferenceMode::Naive;
    else if (mode == "both")
      options.reference = runtime::ReferenceMode::Both;
    else
      usageError("--reference: expected auto, cublas, naive or both, got '" +
                 mode + "'");
  }
  if (has("--seed"))
    options.seed = parseUInt(values["--seed"], "--seed", 0);
  if (has("--inputs")) {
    const std::string &inputs = values["--inputs"];
    if (inputs == "normal")
      options.inputs = runtime::InputValues::Normal;
    else if (inputs == "small-int")
      options.inputs = runtime::InputValues::SmallIntegers;
    else
      usageError("--inputs: expected normal or small-int, got '" + inputs +
                 "'");
  }
  for (const char *name : {"--dump-c", "--expect-c"}) {
    if (!has(name))
      continue;
    if (options.problems.size() != 1)
      usageError(std::string(name) +
                 " takes one problem (--m --n --k), not a shape list");
    if (!options.check)
      usageError(std::string(name) + " needs --check (C of the check run)");
  }
  if (has("--dump-c"))
    options.dumpC = values["--dump-c"];
  if (has("--expect-c"))
    options.expectC = values["--expect-c"];
  if (has("--tolerance"))
    options.tolerance = parsePositive(values["--tolerance"], "--tolerance");
  constexpr uint64_t maxInt = std::numeric_limits<int>::max();
  if (has("--warmup"))
    options.warmup = int(parseUInt(values["--warmup"], "--warmup", 0, maxInt));
  if (has("--iters"))
    options.iterations =
        int(parseUInt(values["--iters"], "--iters", 1, maxInt));
  if (has("--json"))
    options.jsonPath = values["--json"];
  if (has("--timeout-ms"))
    options.timeout = std::chrono::milliseconds(
        parseUInt(values["--timeout-ms"], "--timeout-ms", 1, maxInt));
  if (has("--device"))
    options.device = int(parseUInt(values["--device"], "--device", 0, maxInt));
  if (has("--sm-count")) {
    if (!options.dryRun)
      usageError("--sm-count applies to --dry-run only (on a GPU the runner "
                 "reads the SM count and occupancy)");
    options.dryRunSmCount =
        uint32_t(parseUInt(values["--sm-count"], "--sm-count", 1, 1u << 20));
  }
  return options;
}

std::string usage() {
  return R"(usage: gemm-runner BUNDLE.json (--m M --n N --k K [--batch B] | --shapes FILE) [options]
       gemm-runner --library DIR [--dtype T] [--out-dtype T] [--quant Q] (--m M | --groups SPEC) --n N --k K [options]

Runs a kernel bundle (NAME.json + NAME.ptx/.cubin) on the GPU, checks it
against a reference and times it beside cuBLAS.

kernel:
  --library DIR         pick the bundle from a kernel library (the
                        gemm-kernels build target, build/kernels) with the
                        dispatcher; prints which and why
  --dtype T             input type of A and B for --library (default bf16)
  --out-dtype T         output type for --library (default: the input type;
                        bf16 for fp8, s32 for 8-bit integers)
  --quant Q             scales for --library, e.g. tt, rc, bb, ttf
                        (docs/LowPrecision.md)
  --layout A,B,C        storage orders for --library, row|col each (default
                        row,col,row: A K-major, B N rows of K, C row-major;
                        e.g. col,row,row: M-major A, N-major B); a
                        column-major C the library has no kernel for runs as
                        the transposed problem (N x M, A and B exchanged)
problem:
  --m M --n N --k K     problem size; C[MxN] = A[MxK] * B[NxK]^T
  --batch B             batch count (batched kernels only)
  --groups SPEC         a grouped (MoE) problem, grouped kernels only, with
                        --n and --k: the rows M_g of every group, e.g.
                        128,0,77,300, or random:G:TOTAL:SEED (G groups of
                        uneven random sizes summing to TOTAL); A is
                        [sum M_g, K], B [G, N, K], C [sum M_g, N]; the
                        offsets go to the device as int32; the references
                        and cuBLASLt (--vs cublas) run once per group; with
                        --library the dispatcher picks among the library's
                        grouped kernels (for G groups of M / G rows)
  --group-problems SPEC a general grouped problem, grouped(general) kernels
                        only: a file of one "M N K" per line, or
                        random:G:SEED (M in 0..1024, N and K multiples of
                        8 up to 2048); every group its own matrices and
                        leading dimensions (lines padded to 16 bytes, the
                        odd groups' A and B lines 16 bytes more) in a device
                        array of records; references and cuBLASLt (--vs
                        cublas) once per group with tiles
  --group-checks WHERE  host (default): bad records (negative sizes, K = 0)
                        are refused before launching; device: only the prep
                        kernel checks them (its error word is reported)
  --batch-strides SA,SB,SC
                        elements between the batch entries of A, B, C ('p':
                        packed, the default); 0 for A or B broadcasts one
                        matrix to every entry; C's entries must not overlap
  --shapes FILE         one problem per line: "M N K [BATCH]"; '#' comments
  --unaligned MODE      matrices whose packed rows are not 16-byte multiples
                        (TMA's stride rule): stage (default) copies them
                        through aligned scratch buffers around every launch
                        (timed as part of ours), pad allocates them with
                        padded rows, reject stops with an error
  --pad-leading-dims    the same as --unaligned pad
  --realign MODE        A and B whose rows are 16-byte but not 128-byte
                        multiples (each TMA box row then straddles two L2
                        lines): auto (default) stages rows that are not
                        32-byte multiples (L2 sectors) into 128-byte rows
                        when reused at least 1024 times (A: N, B: M) in a
                        problem of at least 2^32 multiply-adds, always,
                        never
what to do (default: --check):
  --check               run once and compare against the reference
  --reference MODE      auto (default), cublas, naive or both
  --tolerance X         relative Frobenius error bound (default per dtype)
  --seed S              input seed (default 1; shape i uses S + i)
  --inputs KIND         normal (default: random normal values) or small-int
                        (gemm-sim's small integers: every sum is exact)
  --dump-c FILE         write C after the check (gemm/Bundle/TestData.h)
  --expect-c FILE       fail unless C equals this dump (gemm-sim --dump-dir)
                        bit for bit; use with --inputs small-int
  --bench               time the kernel with CUDA events
  --warmup W --iters I  warm-up and timed runs (default 10 and 50)
  --vs cublas           time cuBLASLt on the same inputs, interleaved
  --cold-l2             flush L2 before every timed run
  --timing T            gpu (default): each timed run is queued behind a
                        held stream and then released, so the events time
                        the GPU's work alone; call: each run is launched onto
                        an idle stream, so the host's launch cost counts too
  --dry-run             print the launch plan; no GPU needed
  --sm-count N          SMs assumed by --dry-run for persistent grids (132)
other:
  --json FILE           write machine-readable results
  --timeout-ms T        report a kernel running longer as a hang (10000)
  --device N            GPU ordinal (default 0)
  --probe               print "GPU N: NAME sm_XYa" and exit 0 when a usable
                        GPU is there (3 when not); needs no bundle

exit codes: 0 ok, 1 check failed, 2 usage or bundle error, 3 no GPU/driver,
4 arch mismatch, 5 CUDA error, 6 hang, 7 trap (a debug-waits kernel's bounded
wait expired; the GPU printed where)
)";
}

} // namespace gemm::runner
