//===- gemm-dispatch.cpp - Which kernel runs a problem, and the library ---===//
//
// The dispatcher on the command line, without a GPU or the compiler:
//
//   gemm-dispatch (--model FILE | --library DIR) --m M --n N --k K
//       [--dtype T] [--b-dtype T] [--out-dtype T] [--quant Q]
//       [--layout A,B,C] [--batch B | --groups G] [--sms N]
//       [--staged packed|none|a,b,c] [--json]
//     prints the configuration the dispatcher picks and why (low-precision
//     types and scales: docs/LowPrecision.md; Q is a quant spelling, e.g.
//     tt, rc, bb, ttf), for matrices the runtime stages around TMA kernels
//     as packed rows get staged (--staged packed, the default: rows that are
//     not 16-byte multiples, or worth realigning; gemm/Dispatch/Staging.h)
//     or as listed; --groups G: a grouped (MoE) problem of G groups whose
//     rows sum to M (grouped kernels read the caller's rows: nothing is
//     staged);
//   gemm-dispatch --model FILE --write-library DIR [--dtypes bf16,f16]
//       [--low-precision yes|no]
//     writes the kernel library's index (DIR/library.json, DIR/model.json)
//     and the gemm.matmul ops of its kernels for gemm-opt, one file per
//     layout group and batched or not (DIR/library-<a?b?c?>[-batched].mlir,
//     e.g. library-akbkcr.mlir: the build compiles them in parallel), the
//     grouped kernels of groupedLibrarySet() (DIR/library-grouped.mlir), the
//     low-precision kernels of lowPrecisionLibrarySet() unless no
//     (DIR/library-lowp.mlir), and all of them (DIR/library.mlir).
//
// Exit codes: 0 ok, 2 bad usage or unreadable data.
//
//===----------------------------------------------------------------------===//

#include "gemm/Dispatch/Dispatcher.h"
#include "gemm/Dispatch/Staging.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

using namespace gemm;
using namespace gemm::dispatch;

namespace {

const char *Usage =
    "usage: gemm-dispatch (--model FILE | --library DIR) --m M --n N --k K\n"
    "           [--dtype T] [--b-dtype T] [--out-dtype T] [--quant Q] "
    "[--layout A,B,C] [--batch B | --groups G] [--sms N]\n"
    "           [--staged packed|none|a,b,c] [--json]\n"
    "       (--layout: row|col of A, B, C, e.g. col,row,row; default "
    "row,col,row)\n"
    "       gemm-dispatch --model FILE --write-library DIR "
    "[--dtypes bf16,f16] [--low-precision yes|no]\n";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

DType parseType(const std::string &text, const char *option) {
  auto type = bundle::parseEnum<DType>(text);
  if (!type)
    throw UsageError(std::string(option) + " " + text + ": expected one of " +
                     bundle::spellingList<DType>());
  return *type;
}

uint64_t parseCount(const std::string &text, const char *option) {
  size_t used = 0;
  uint64_t value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception &) {
  }
  if (used != text.size() || value == 0)
    throw UsageError(std::string(option) + " " + text +
                     ": expected a positive integer");
  return value;
}

int writeLibrary(const std::string &modelPath, const std::string &dir,
                 const std::string &dtypes, bool lowPrecision) {
  std::vector<DType> types;
  std::stringstream list(dtypes);
  for (std::string item; std::getline(list, item, ',');)
    types.push_back(parseType(item, "--dtypes"));
  DispatchModel model = DispatchModel::load(modelPath);
  std::vector<KernelConfig> configs =
      librarySet(model, types, libraryLayouts(), /*batched=*/true);
  for (const KernelConfig &config : groupedLibrarySet(model, types))
    configs.push_back(config);
  if (lowPrecision)
    for (const KernelConfig &config : lowPrecisionLibrarySet(model))
      configs.push_back(config);
  KernelLibrary::writeIndex(dir, modelPath, configs);
  // All kernels, and one file per layout group: every group the build
  // compiles (lib/KernelLibrary/CMakeLists.txt), empty where the model has
  // none (the kernels of transposed problems write a column-major C).
  std::map<std::string, std::string> parts = {{"grouped", ""}, {"lowp", ""}};
  for (TensorLayouts layouts : libraryLayouts())
    for (Layout c : {Layout::Row, Layout::Col}) {
      layouts.c = c;
      parts[layoutToken(layouts)];
      if (c == Layout::Row)
        parts[layoutToken(layouts) + "-batched"];
    }
  std::string all;
  for (const KernelConfig &config : configs) {
    all += config.mlir();
    bool sixteenBit =
        config.inType == DType::BF16 || config.inType == DType::F16;
    parts[config.grouped ? "grouped"
          : sixteenBit
              ? layoutToken(config.layouts) + (config.batched ? "-batched" : "")
              : "lowp"] += config.mlir();
  }
  auto write = [&](const std::string &path, const std::string &ops) {
    std::ofstream mlir(path);
    mlir << "// The kernel library: every configuration the dispatcher can "
            "pick from\n// "
         << modelPath << " (gemm-dispatch --write-library).\n\n"
         << ops;
    if (!mlir)
      throw DispatchError(path + ": cannot write");
  };
  write(dir + "/library.mlir", all);
  for (const auto &[part, ops] : parts)
    write(dir + "/library-" + part + ".mlir", ops);
  std::cout << dir << ": " << configs.size() << " kernels\n";
  return 0;
}

int run(const std::vector<std::string> &args) {
  std::map<std::string, std::string> values;
  bool json = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg == "--json") {
      json = true;
    } else if (arg == "--help" || arg == "-h") {
      std::cout << Usage;
      return 0;
    } else if (arg.rfind("--", 0) == 0 && i + 1 < args.size()) {
      values[arg] = args[++i];
    } else {
      throw UsageError("unexpected argument '" + arg + "'");
    }
  }
  static const char *Known[] = {"--model",
                                "--library",
                                "--m",
                                "--n",
                                "--k",
                                "--dtype",
                                "--b-dtype",
                                "--out-dtype",
                                "--quant",
                                "--sms",
                                "--write-library",
                                "--dtypes",
                                "--low-precision",
                                "--layout",
                                "--batch",
                                "--groups",
                                "--staged"};
  for (const auto &[option, value] : values)
    if (std::find(std::begin(Known), std::end(Known), option) ==
        std::end(Known))
      throw UsageError("unknown option " + option);
  if (values.count("--write-library")) {
    if (!values.count("--model"))
      throw UsageError("--write-library needs --model FILE");
    if (values.count("--low-precision") && values["--low-precision"] != "yes" &&
        values["--low-precision"] != "no")
      throw UsageError("--low-precision " + values["--low-precision"] +
                       ": expected yes or no");
    return writeLibrary(
        values["--model"], values["--write-library"],
        values.count("--dtypes") ? values["--dtypes"] : "bf16,f16",
        !values.count("--low-precision") || values["--low-precision"] == "yes");
  }
  for (const char *dim : {"--m", "--n", "--k"})
    if (!values.count(dim))
      throw UsageError(std::string("missing ") + dim);
  if (values.count("--model") == values.count("--library"))
    throw UsageError("give one of --model FILE or --library DIR");

  Problem problem;
  problem.m = parseCount(values["--m"], "--m");
  problem.n = parseCount(values["--n"], "--n");
  problem.k = parseCount(values["--k"], "--k");
  if (values.count("--dtype"))
    problem.inType = parseType(values["--dtype"], "--dtype");
  if (values.count("--out-dtype"))
    problem.outType = parseType(values["--out-dtype"], "--out-dtype");
  if (values.count("--b-dtype"))
    problem.inTypeB = parseType(values["--b-dtype"], "--b-dtype");
  if (values.count("--quant")) {
    std::string error;
    std::optional<QuantConfig> quant =
        QuantConfig::parse(values["--quant"], error);
    if (!quant)
      throw UsageError("--quant: " + error);
    problem.quant = *quant;
  }
  if (values.count("--batch"))
    problem.batch = parseCount(values["--batch"], "--batch");
  if (values.count("--groups")) {
    if (values.count("--batch"))
      throw UsageError("--groups and --batch exclude each other");
    problem.groups = parseCount(values["--groups"], "--groups");
  }
  if (values.count("--layout")) {
    std::string error;
    auto layouts = parseLayoutTriple(values["--layout"], error);
    if (!layouts)
      throw UsageError("--layout " + error);
    problem.layouts = *layouts;
  }
  std::string staged =
      values.count("--staged") ? values["--staged"] : std::string("packed");
  if (problem.grouped()) {
    if (values.count("--staged") && staged != "none")
      throw UsageError("--staged " + staged +
                       ": grouped kernels read the caller's rows as they are "
                       "(nothing is staged)");
  } else if (staged == "packed") {
    problem.staged =
        packedStaging({problem.m, problem.n, problem.k, problem.batch},
                      problem.inType, problem.outType, problem.layouts);
  } else if (staged != "none") {
    std::stringstream list(staged);
    for (std::string item; std::getline(list, item, ',');) {
      auto tensor = bundle::parseEnum<bundle::Tensor>(item);
      if (!tensor)
        throw UsageError("--staged " + staged +
                         ": expected packed, none or a list of a, b, c");
      problem.staged[static_cast<size_t>(*tensor)] = true;
    }
  }
  Target target;
  if (values.count("--sms"))
    target.smCount =
        static_cast<uint32_t>(parseCount(values["--sms"], "--sms"));

  Selection selection;
  std::string library;
  if (values.count("--library")) {
    KernelLibrary lib = KernelLibrary::load(values["--library"]);
    selection = lib.select(problem, target);
    library = lib.manifestPath(selection.config).string();
  } else {
    DispatchModel model = DispatchModel::load(values["--model"]);
    selection = select(problem, model, target);
  }
  if (json) {
    nlohmann::json out = {
        {"problem", problem.toString() + problem.stagingNote()},
        {"config", selection.config.name()},
        {"source", toString(selection.source)},
        {"estimated_us", selection.estimate.seconds * 1e6},
        {"reason", selection.reason},
        {"transposed", selection.transposed}};
    if (!library.empty())
      out["manifest"] = library;
    std::cout << out.dump(1) << "\n";
  } else {
    std::cout << problem.toString() << problem.stagingNote() << ": "
              << selection.config.name() << " (" << toString(selection.source)
              << ": " << selection.reason << ")\n";
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const UsageError &e) {
    std::cerr << "gemm-dispatch: " << e.what() << "\n" << Usage;
  } catch (const std::exception &e) {
    std::cerr << "gemm-dispatch: " << e.what() << "\n";
  }
  return 2;
}
