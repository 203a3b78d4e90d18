//===- ConfigMutator.cpp - gemm-aware mutations of fuzz inputs -----------===//

#include "ConfigMutator.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string_view>
#include <vector>

using namespace gemm_fuzz;

namespace {

using Rng = std::mt19937_64;

size_t below(Rng &rng, size_t n) {
  return n <= 1 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

/// True with probability `num / den`.
bool chance(Rng &rng, size_t num, size_t den) { return below(rng, den) < num; }

template <size_t N> std::string pick(Rng &rng, const char *const (&values)[N]) {
  return values[below(rng, N)];
}

std::string pickOf(Rng &rng, const std::vector<std::string> &values) {
  return values[below(rng, values.size())];
}

/// A half-open character range [begin, end) of the text.
struct Span {
  size_t begin = 0, end = 0;
  size_t size() const { return end - begin; }
};

void replace(std::string &text, Span span, std::string_view with) {
  text.replace(span.begin, span.size(), with);
}

std::vector<size_t> findAll(const std::string &text, std::string_view needle) {
  std::vector<size_t> found;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1))
    found.push_back(at);
  return found;
}

Span trim(const std::string &text, Span span) {
  while (span.begin < span.end && std::isspace((unsigned char)text[span.begin]))
    ++span.begin;
  while (span.end > span.begin &&
         std::isspace((unsigned char)text[span.end - 1]))
    --span.end;
  return span;
}

/// The index of the bracket closing the one opened just before `from`
/// (`open`/`close` a pair such as '<' '>'), counting nesting; npos if none.
size_t findClosing(const std::string &text, size_t from, char open,
                   char close) {
  int depth = 1;
  for (size_t i = from; i < text.size(); ++i) {
    if (text[i] == open)
      ++depth;
    else if (text[i] == close && --depth == 0)
      return i;
  }
  return std::string::npos;
}

//===----------------------------------------------------------------------===//
// Values, legal and not
//===----------------------------------------------------------------------===//

const char *const kInterestingIntegers[] = {"0",
                                            "1",
                                            "2",
                                            "3",
                                            "4",
                                            "5",
                                            "7",
                                            "8",
                                            "12",
                                            "16",
                                            "17",
                                            "24",
                                            "31",
                                            "32",
                                            "33",
                                            "48",
                                            "63",
                                            "64",
                                            "65",
                                            "96",
                                            "112",
                                            "127",
                                            "128",
                                            "129",
                                            "160",
                                            "192",
                                            "200",
                                            "224",
                                            "240",
                                            "255",
                                            "256",
                                            "257",
                                            "384",
                                            "512",
                                            "1024",
                                            "4096",
                                            "65535",
                                            "65536",
                                            "2147483647",
                                            "2147483648",
                                            "4294967295",
                                            "4294967296",
                                            "-1",
                                            "-2",
                                            "-64",
                                            "-2147483648",
                                            "9223372036854775807",
                                            "-9223372036854775808",
                                            "4611686018427387904",
                                            "99999999999999999999"};

std::string integer(Rng &rng) { return pick(rng, kInterestingIntegers); }

/// One value in eight is illegal: libFuzzer stacks up to five mutations on
/// an input, and an input with one illegal value stops at its verifier.
bool legalValue(Rng &rng) { return chance(rng, 7, 8); }

/// Legal values most of the time, anything the grammar allows otherwise.
std::string configValue(const std::string &key, Rng &rng) {
  bool legal = legalValue(rng);
  if (key == "arch") {
    const char *const good[] = {"sm_90a", "sm_100a"};
    const char *const bad[] = {"sm_90",   "sm_100", "sm_80",     "sm_120a",
                               "sm_103a", "90",     "\"sm_90a\""};
    return legal ? pick(rng, good) : pick(rng, bad);
  }
  if (key == "schedule") {
    const char *const good[] = {"cooperative", "pingpong", "warp_roles",
                                "direct"};
    const char *const bad[] = {"persistent", "static_persistent", "coop", "0"};
    return legal ? pick(rng, good) : pick(rng, bad);
  }
  if (key == "scheduler") {
    const char *const good[] = {"static_persistent", "clc", "split_k",
                                "stream_k"};
    const char *const bad[] = {"cooperative", "splitk", "stream", "1"};
    return legal ? pick(rng, good) : pick(rng, bad);
  }
  if (key == "raster") {
    const char *const good[] = {"along_m", "along_n"};
    const char *const bad[] = {"along_k", "m", "row", "1"};
    return legal ? pick(rng, good) : pick(rng, bad);
  }
  if (key == "tile") {
    if (!legal) {
      std::string list = "[";
      size_t count = below(rng, 5);
      for (size_t i = 0; i < count; ++i)
        list += (i ? ", " : "") + integer(rng);
      return list + "]";
    }
    const char *const m[] = {"64", "128", "192", "256"};
    const char *const n[] = {"16",  "32",  "64",  "96", "128", "160", "192",
                             "208", "224", "256", "8",  "24",  "48",  "112"};
    const char *const k[] = {"64", "128", "32"};
    return "[" + pick(rng, m) + ", " + pick(rng, n) + ", " + pick(rng, k) + "]";
  }
  if (key == "cluster") {
    const char *const good[] = {"[1, 1]", "[2, 1]", "[1, 2]", "[2, 2]",
                                "[4, 1]", "[1, 4]", "[4, 2]", "[2, 4]",
                                "[8, 1]", "[1, 8]"};
    if (legal)
      return pick(rng, good);
    const char *const bad[] = {"[]",     "[1]",     "[1, 1, 1]", "[0, 1]",
                               "[3, 1]", "[16, 1]", "[-1, -1]"};
    if (chance(rng, 1, 2))
      return pick(rng, bad);
    return "[" + integer(rng) + ", " + integer(rng) + "]";
  }
  // Integer fields, with each one's legal range.
  if (legal) {
    if (key == "stages") {
      const char *const good[] = {"0", "2", "3", "4", "5", "6", "7", "8", "12"};
      return pick(rng, good);
    }
    if (key == "swizzle") {
      const char *const good[] = {"1", "2", "4", "8", "16"};
      return pick(rng, good);
    }
    if (key == "accum_stages") {
      const char *const good[] = {"1", "2", "3", "4"};
      return pick(rng, good);
    }
    if (key == "cta_group") {
      const char *const good[] = {"1", "2"};
      return pick(rng, good);
    }
    if (key == "k_group") {
      const char *const good[] = {"1", "2", "4", "8"};
      return pick(rng, good);
    }
    if (key == "splits") {
      const char *const good[] = {"1", "2", "3", "4", "8", "16"};
      return pick(rng, good);
    }
  }
  return integer(rng);
}

const char *const kConfigKeys[] = {
    "arch",   "tile",   "cluster", "stages",       "schedule",  "scheduler",
    "splits", "raster", "swizzle", "accum_stages", "cta_group", "k_group"};

std::string inputType(Rng &rng, bool legal) {
  // sm_90a also takes f32 (tf32) and 8-bit integers (docs/LowPrecision.md).
  const char *const good[] = {"bf16", "f16", "f8E4M3FN", "f8E5M2",
                              "f32",  "si8", "ui8"};
  const char *const bad[] = {"f64",           "i8",
                             "i16",           "i32",
                             "tf32",          "f8E4M3FNUZ",
                             "f8E5M2FNUZ",    "f4E2M1FN",
                             "f6E2M3FN",      "f8E8M0FNU",
                             "index",         "i1",
                             "complex<f16>",  "vector<2xbf16>",
                             "tensor<4xf16>", "none",
                             "!llvm.ptr",     "i0"};
  return legal ? pick(rng, good) : pick(rng, bad);
}

std::string outputType(Rng &rng, bool legal) {
  const char *const good[] = {"bf16",     "f16",    "f32",
                              "f8E4M3FN", "f8E5M2", "i32"};
  const char *const bad[] = {"si32", "f64", "i8", "si8", "tf32", "index"};
  return legal ? pick(rng, good) : pick(rng, bad);
}

std::string accType(Rng &rng, bool legal) {
  const char *const good[] = {"f32", "i32"};
  const char *const bad[] = {"f16", "bf16", "f64", "tf32", "i64", "si32"};
  return legal ? pick(rng, good) : pick(rng, bad);
}

/// A `quant(#gemm.quant<...>)` clause: scales, accumulation and promotion
/// of low-precision kernels (fields legal or not, in any combination).
std::string quant(Rng &rng, bool legal) {
  const char *const a[] = {"none", "tensor", "row", "block"};
  const char *const b[] = {"none", "tensor", "col", "block"};
  const char *const bad[] = {"col", "rows", "1", "blocks", ""};
  std::string fields;
  auto add = [&](const std::string &field) {
    fields += (fields.empty() ? "" : ", ") + field;
  };
  if (chance(rng, 3, 4))
    add("a = " + (legal ? pick(rng, a) : pick(rng, bad)));
  if (chance(rng, 3, 4))
    add("b = " + (legal ? pick(rng, b) : pick(rng, bad)));
  if (chance(rng, 1, 4))
    add(std::string("c = ") + (legal ? "tensor" : "row"));
  if (chance(rng, 1, 4))
    add(std::string("accumulate = ") +
        (chance(rng, 1, 2) ? "fast" : "promoted"));
  if (chance(rng, 1, 4))
    add("promote_every = " +
        (legal ? std::string(chance(rng, 1, 2) ? "2" : "4") : integer(rng)));
  return "quant(#gemm.quant<" + fields + ">)";
}

std::string layout(Rng &rng, bool legal) {
  const char *const good[] = {"row", "col"};
  const char *const bad[] = {"rows", "column", "0", "row_major", "k"};
  return legal ? pick(rng, good) : pick(rng, bad);
}

//===----------------------------------------------------------------------===//
// #gemm.config<...>
//===----------------------------------------------------------------------===//

struct Field {
  Span whole, key, value;
};

/// The `key = value` fields of the config body `body` (between < and >).
std::vector<Field> parseFields(const std::string &text, Span body) {
  std::vector<Field> fields;
  size_t start = body.begin;
  int depth = 0;
  for (size_t i = body.begin; i <= body.end; ++i) {
    char c = i < body.end ? text[i] : ',';
    if (c == '[' || c == '<' || c == '(')
      ++depth;
    else if (c == ']' || c == '>' || c == ')')
      --depth;
    if (c != ',' || depth != 0)
      continue;
    Field field;
    field.whole = {start, i};
    size_t equals = text.find('=', start);
    if (equals != std::string::npos && equals < i) {
      field.key = trim(text, {start, equals});
      field.value = trim(text, {equals + 1, i});
    } else {
      field.key = trim(text, {start, i});
      field.value = {field.key.end, field.key.end};
    }
    fields.push_back(field);
    start = i + 1;
  }
  return fields;
}

std::vector<Span> configBodies(const std::string &text) {
  std::vector<Span> bodies;
  for (size_t at : findAll(text, "#gemm.config<")) {
    size_t begin = at + std::string_view("#gemm.config<").size();
    size_t end = findClosing(text, begin, '<', '>');
    if (end != std::string::npos)
      bodies.push_back({begin, end});
  }
  return bodies;
}

bool mutateConfig(std::string &text, Rng &rng) {
  std::vector<Span> bodies = configBodies(text);
  if (bodies.empty())
    return false;
  Span body = bodies[below(rng, bodies.size())];
  std::vector<Field> fields = parseFields(text, body);
  size_t action = below(rng, 10);
  if (action < 5 && !fields.empty()) {
    // A new value for a field.
    Field &field = fields[below(rng, fields.size())];
    std::string key = text.substr(field.key.begin, field.key.size());
    std::string value = configValue(key, rng);
    // A new arch mostly comes with the schedule it needs (sm_100a kernels
    // are warp_roles, sm_90a ones are not), else most such inputs would
    // stop at that one diagnostic.
    std::string schedule;
    if (key == "arch" && chance(rng, 3, 4)) {
      if (value == "sm_100a")
        schedule = "warp_roles";
      else if (value == "sm_90a") {
        const char *const sm90[] = {"cooperative", "pingpong", "direct"};
        schedule = pick(rng, sm90);
      }
    }
    auto scheduleField =
        std::find_if(fields.begin(), fields.end(), [&](Field &f) {
          return text.compare(f.key.begin, f.key.size(), "schedule") == 0;
        });
    if (!schedule.empty() && scheduleField != fields.end() &&
        scheduleField->whole.begin > field.whole.begin)
      replace(text, scheduleField->value, schedule);
    replace(text, field.value, value);
    if (!schedule.empty() && scheduleField != fields.end() &&
        scheduleField->whole.begin < field.whole.begin)
      replace(text, scheduleField->value, schedule);
    if (!schedule.empty() && scheduleField == fields.end()) {
      size_t end = configBodies(text)[0].end;
      for (Span other : configBodies(text))
        if (other.begin == body.begin)
          end = other.end;
      text.insert(end, ", schedule = " + schedule);
    }
    return true;
  }
  if (action < 7) {
    // A field added (a missing one, or now and then one given twice).
    std::vector<std::string> missing;
    for (const char *key : kConfigKeys) {
      bool present = std::any_of(fields.begin(), fields.end(), [&](Field &f) {
        return text.compare(f.key.begin, f.key.size(), key) == 0;
      });
      if (!present || chance(rng, 1, 10))
        missing.push_back(key);
    }
    if (missing.empty())
      return false;
    std::string key = pickOf(rng, missing);
    std::string field = key + " = " + configValue(key, rng);
    bool empty = trim(text, body).size() == 0;
    text.insert(body.end, empty ? field : ", " + field);
    return true;
  }
  if (fields.empty())
    return false;
  if (action < 9) {
    // A field removed, with its separating comma; arch and tile (required)
    // only now and then.
    size_t index = below(rng, fields.size());
    for (int tries = 0; tries < 4 && legalValue(rng); ++tries) {
      Span key = fields[index].key;
      if (text.compare(key.begin, key.size(), "arch") != 0 &&
          text.compare(key.begin, key.size(), "tile") != 0)
        break;
      index = below(rng, fields.size());
    }
    Span whole = fields[index].whole;
    if (index + 1 < fields.size())
      whole.end = fields[index + 1].whole.begin;
    else if (index > 0)
      whole.begin = fields[index - 1].whole.end;
    replace(text, whole, "");
    return true;
  }
  // A key renamed: to another key, or to one the attribute does not have.
  Field &field = fields[below(rng, fields.size())];
  const char *const bogus[] = {"tiles", "clusters", "stage", "warps", "arch2"};
  replace(text, field.key,
          legalValue(rng) ? pick(rng, kConfigKeys) : pick(rng, bogus));
  return true;
}

//===----------------------------------------------------------------------===//
// gemm.matmul's signature and epilogue
//===----------------------------------------------------------------------===//

/// The operand groups `a(T, L)`, `b(T, L)`, `c(T, L)`, `acc(T)` and the
/// symbol of one gemm.matmul.
struct Signature {
  Span symbol;
  Span type[4], layout[3]; // a, b, c, acc; a, b, c
  Span config;             // `config(...)`, parentheses included
  size_t end = 0;          // after `config(...)`
  bool ok = false;
};

Signature parseSignature(const std::string &text, size_t at) {
  Signature sig;
  size_t pos = at + std::string_view("gemm.matmul").size();
  size_t symbol = text.find('@', pos);
  if (symbol == std::string::npos)
    return sig;
  size_t symbolEnd = symbol + 1;
  if (symbolEnd < text.size() && text[symbolEnd] == '"') {
    size_t close = text.find('"', symbolEnd + 1);
    if (close == std::string::npos)
      return sig;
    symbolEnd = close + 1;
  } else {
    while (symbolEnd < text.size() &&
           (std::isalnum((unsigned char)text[symbolEnd]) ||
            text[symbolEnd] == '_' || text[symbolEnd] == '.' ||
            text[symbolEnd] == '$' || text[symbolEnd] == '-'))
      ++symbolEnd;
  }
  sig.symbol = {symbol, symbolEnd};
  pos = symbolEnd;
  const char *const groups[] = {"a(", "b(", "c(", "acc("};
  for (int g = 0; g < 4; ++g) {
    size_t open = text.find(groups[g], pos);
    if (open == std::string::npos)
      return sig;
    size_t begin = open + std::string_view(groups[g]).size();
    size_t close = findClosing(text, begin, '(', ')');
    if (close == std::string::npos)
      return sig;
    // The layout follows the last top-level comma (types such as
    // vector<2xbf16> have none).
    size_t comma = std::string::npos;
    int depth = 0;
    for (size_t i = begin; i < close; ++i) {
      if (text[i] == '<' || text[i] == '(')
        ++depth;
      else if (text[i] == '>' || text[i] == ')')
        --depth;
      else if (text[i] == ',' && depth == 0)
        comma = i;
    }
    if (g < 3 && comma != std::string::npos) {
      sig.type[g] = trim(text, {begin, comma});
      sig.layout[g] = trim(text, {comma + 1, close});
    } else {
      sig.type[g] = trim(text, {begin, close});
      if (g < 3)
        sig.layout[g] = {close, close};
    }
    pos = close + 1;
  }
  size_t config = text.find("config(", pos);
  if (config == std::string::npos)
    return sig;
  size_t close = findClosing(text, config + 7, '(', ')');
  if (close == std::string::npos)
    return sig;
  sig.config = {config, close + 1};
  sig.end = close + 1;
  sig.ok = true;
  return sig;
}

std::string epilogue(Rng &rng, const std::string &acc, const std::string &c) {
  // `%a` is the accumulator value; each body ends in a value of type `last`
  // that the tail converts to `c` when it differs.
  std::string body, value = "%a", type = acc;
  switch (below(rng, 14)) {
  case 0: // identity
    break;
  case 1:
    body = "  %s = arith.constant 2.5 : " + acc +
           "\n  %m = arith.mulf %a, %s : " + acc + "\n";
    value = "%m";
    break;
  case 2: // relu
    body = "  %z = arith.constant 0.0 : " + acc +
           "\n  %m = arith.maximumf %a, %z : " + acc + "\n";
    value = "%m";
    break;
  case 3: {
    const char *const fns[] = {"math.exp",  "math.tanh", "math.erf",
                               "math.sqrt", "math.absf", "math.log"};
    body = "  %m = " + pick(rng, fns) + " %a : " + acc + "\n";
    value = "%m";
    break;
  }
  case 4: // select through a comparison
    body = "  %z = arith.constant 0.0 : " + acc +
           "\n  %p = arith.cmpf ogt, %a, %z : " + acc +
           "\n  %m = arith.select %p, %a, %z : " + acc + "\n";
    value = "%m";
    break;
  case 5: // control flow inside the epilogue
    body = "  %z = arith.constant 0.0 : " + acc +
           "\n  %p = arith.cmpf olt, %a, %z : " + acc +
           "\n  %m = scf.if %p -> (" + acc + ") {\n    scf.yield %z : " + acc +
           "\n  } else {\n    scf.yield %a : " + acc + "\n  }\n";
    value = "%m";
    break;
  case 6: // division by a zero constant, folded or not
    body = "  %z = arith.constant 0.0 : " + acc +
           "\n  %m = arith.divf %a, %z : " + acc + "\n";
    value = "%m";
    break;
  case 7: // through an integer
    body = "  %i = arith.fptosi %a : " + acc +
           " to i32\n  %m = arith.sitofp %i : i32 to " + acc + "\n";
    value = "%m";
    break;
  case 8: // no terminator
    return " {\n^bb0(%a: " + acc + "):\n  %z = arith.constant 0.0 : " + acc +
           "\n}";
  case 9: // two arguments, or none
    return chance(rng, 1, 2) ? " {\n^bb0(%a: " + acc + ", %b: " + acc +
                                   "):\n  gemm.yield %a : " + acc + "\n}"
                             : " {\n  %z = arith.constant 0.0 : " + c +
                                   "\n  gemm.yield %z : " + c + "\n}";
  case 10: // a second block
    return " {\n^bb0(%a: " + acc +
           "):\n  cf.br ^bb1\n^bb1:\n  gemm.yield %a : " + acc + "\n}";
  case 11: { // ops that have no business in an epilogue
    const char *const odd[] = {
        "  gpu.barrier\n", "  %t = gpu.thread_id x\n", "  nvvm.barrier0\n",
        "  %p = memref.alloca() : memref<4xf32>\n", "  gemm.wgmma.fence\n"};
    body = pick(rng, odd);
    break;
  }
  case 12: // wrong result type
    return " {\n^bb0(%a: " + acc + "):\n  gemm.yield %a : " + acc + "\n}";
  default: // an empty region
    return " {\n}";
  }
  std::string tail;
  if (type != c) {
    bool narrower = (c == "bf16" || c == "f16") && type == "f32";
    tail = "  %o = arith." + std::string(narrower ? "truncf" : "extf") + " " +
           value + " : " + type + " to " + c + "\n";
    value = "%o";
  }
  return " {\n^bb0(%a: " + acc + "):\n" + body + tail + "  gemm.yield " +
         value + " : " + c + "\n}";
}

bool mutateMatmul(std::string &text, Rng &rng) {
  std::vector<size_t> ops = findAll(text, "gemm.matmul");
  if (ops.empty())
    return false;
  Signature sig = parseSignature(text, ops[below(rng, ops.size())]);
  if (!sig.ok)
    return false;
  bool legal = legalValue(rng);
  switch (below(rng, 9)) {
  case 0: { // A and B types, together (legal) or apart
    std::string type = inputType(rng, legal);
    replace(text, sig.type[1], chance(rng, 4, 5) ? type : inputType(rng, true));
    replace(text, sig.type[0], type);
    return true;
  }
  case 1:
    replace(text, sig.type[2], outputType(rng, legal));
    return true;
  case 2:
    replace(text, sig.type[3], accType(rng, legal));
    return true;
  case 3: { // a layout
    size_t which = below(rng, 3);
    if (sig.layout[which].size() == 0)
      return false;
    replace(text, sig.layout[which], layout(rng, legal));
    return true;
  }
  case 4: { // the symbol: odd names, or another kernel's
    const char *const names[] = {
        "@k",
        "@\"with space\"",
        "@\"dot.ted\"",
        "@\"0digit\"",
        "@\"dash-ed\"",
        "@\"quote\\\"d\"",
        "@\"\"",
        "@$dollar",
        "@main",
        "@gemm_debug_wait_record",
        "@__nv_expf",
        "@\"\\00\"",
        ("@kernel_very_long_name_that_goes_on_and_on_for_a_while_to_see_"
         "what_a_long_symbol_does_to_the_bundle")};
    std::vector<std::string> choices(std::begin(names), std::end(names));
    for (size_t other : ops) {
      Signature o = parseSignature(text, other);
      if (o.ok)
        choices.push_back(text.substr(o.symbol.begin, o.symbol.size()));
    }
    replace(text, sig.symbol, pickOf(rng, choices));
    return true;
  }
  case 5: { // the epilogue region: added, replaced or removed
    size_t brace = sig.end;
    while (brace < text.size() && std::isspace((unsigned char)text[brace]))
      ++brace;
    Span region = {sig.end, sig.end};
    if (brace < text.size() && text[brace] == '{') {
      size_t close = findClosing(text, brace + 1, '{', '}');
      if (close == std::string::npos)
        return false;
      region.end = close + 1;
    }
    std::string acc = text.substr(sig.type[3].begin, sig.type[3].size());
    std::string c = text.substr(sig.type[2].begin, sig.type[2].size());
    if (region.size() != 0 && chance(rng, 1, 4)) {
      replace(text, region, "");
      return true;
    }
    replace(text, region, epilogue(rng, acc, c));
    return true;
  }
  case 6: { // the whole config of another matmul, or a fresh one
    std::vector<Span> bodies = configBodies(text);
    if (bodies.size() < 2 || chance(rng, 1, 2)) {
      std::string fresh =
          "config(#gemm.config<arch = " + configValue("arch", rng) +
          ", tile = " + configValue("tile", rng) + ">)";
      replace(text, sig.config, fresh);
      return true;
    }
    Span other = bodies[below(rng, bodies.size())];
    std::string body = text.substr(other.begin, other.size());
    replace(text, sig.config, "config(#gemm.config<" + body + ">)");
    return true;
  }
  case 7: { // the quant clause after acc(...): added, replaced or removed
    size_t accEnd = text.find(')', sig.type[3].end);
    if (accEnd == std::string::npos || accEnd > sig.config.begin)
      return false;
    Span clause = {accEnd + 1, accEnd + 1};
    size_t q = text.find("quant(", accEnd);
    if (q != std::string::npos && q < sig.config.begin) {
      size_t close = findClosing(text, q + 6, '(', ')');
      if (close == std::string::npos || close > sig.config.begin)
        return false;
      clause = {q, close + 1};
    }
    if (clause.size() != 0 && chance(rng, 1, 4)) {
      replace(text, clause, "");
      return true;
    }
    replace(text, clause, (clause.size() ? "" : " ") + quant(rng, legal));
    return true;
  }
  default: { // the whole op duplicated (a second kernel, same name or not)
    size_t end = sig.end;
    while (end < text.size() && std::isspace((unsigned char)text[end]))
      ++end;
    if (end < text.size() && text[end] == '{') {
      size_t close = findClosing(text, end + 1, '{', '}');
      if (close == std::string::npos)
        return false;
      end = close + 1;
    } else {
      end = sig.end;
    }
    size_t begin = sig.symbol.begin;
    while (begin > 0 && text.compare(begin, 11, "gemm.matmul") != 0)
      --begin;
    std::string op = text.substr(begin, end - begin);
    text.insert(end, "\n" + op);
    return true;
  }
  }
}

//===----------------------------------------------------------------------===//
// The harness's option line
//===----------------------------------------------------------------------===//

bool mutateOptions(std::string &text, Rng &rng) {
  const char *const keys[] = {"ptx",         "debug-waits", "wgmma-lookahead",
                              "store-slots", "checks",      "protocol"};
  std::string key = pick(rng, keys);
  std::string value;
  if (key == "ptx" || key == "checks" || key == "protocol")
    value = chance(rng, 1, 2) ? "1" : "0";
  else if (key == "debug-waits") {
    const char *const values[] = {
        "0",          "1",          "5",  "1000",
        "4294967295", "4294967296", "-1", "9223372036854775807"};
    value = pick(rng, values);
  } else if (key == "wgmma-lookahead") {
    const char *const values[] = {"0", "1", "2", "3", "4", "5", "-1", "100"};
    value = pick(rng, values);
  } else {
    const char *const values[] = {"1", "2", "3", "4", "0", "5", "-1", "64"};
    value = pick(rng, values);
  }
  std::string prefix = kOptionsPrefix;
  if (text.compare(0, prefix.size(), prefix) != 0) {
    text.insert(0, prefix + " " + key + "=" + value + "\n");
    return true;
  }
  size_t lineEnd = text.find('\n');
  if (lineEnd == std::string::npos)
    lineEnd = text.size();
  size_t at = text.find(" " + key + "=");
  if (at == std::string::npos || at > lineEnd) {
    text.insert(lineEnd, " " + key + "=" + value);
    return true;
  }
  size_t begin = at + key.size() + 2, end = begin;
  while (end < lineEnd && !std::isspace((unsigned char)text[end]))
    ++end;
  replace(text, {begin, end}, value);
  return true;
}

//===----------------------------------------------------------------------===//
// Anywhere: integers and whole lines
//===----------------------------------------------------------------------===//

bool mutateInteger(std::string &text, Rng &rng) {
  std::vector<Span> numbers;
  for (size_t i = 0; i < text.size();) {
    if (!std::isdigit((unsigned char)text[i]) ||
        (i > 0 &&
         (std::isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_' ||
          text[i - 1] == '%' || text[i - 1] == '#' || text[i - 1] == '.'))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && std::isdigit((unsigned char)text[end]))
      ++end;
    // Not a float, an identifier suffix or a type such as i32 / 4x8xf16.
    if (end < text.size() &&
        (text[end] == '.' || std::isalpha((unsigned char)text[end]) ||
         text[end] == '_')) {
      if (text[end] != 'x') {
        i = end;
        continue;
      }
    }
    numbers.push_back({i, end});
    i = end;
  }
  if (numbers.empty())
    return false;
  Span number = numbers[below(rng, numbers.size())];
  // Non-negative values only: most integers outside the config are type
  // parameters and attribute values the grammar wants unsigned (negative
  // ones, which the config's verifier must handle, come from configValue).
  unsigned long long value = std::strtoull(
      text.substr(number.begin, number.size()).c_str(), nullptr, 10);
  constexpr unsigned long long kMax = 9223372036854775807ull;
  std::string with;
  switch (below(rng, 4)) {
  case 0:
    with = std::to_string(std::min(value, kMax - 1) + 1);
    break;
  case 1:
    with = std::to_string(value > 0 ? value - 1 : 0);
    break;
  case 2:
    with = std::to_string(chance(rng, 1, 2) ? std::min(value, kMax / 2) * 2
                                            : value / 2);
    break;
  default:
    with = integer(rng);
    if (with[0] == '-' || with.size() > 19)
      with = "0";
  }
  replace(text, number, with);
  return true;
}

std::vector<Span> lines(const std::string &text) {
  std::vector<Span> result;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\n') {
      if (i > start)
        result.push_back({start, i});
      start = i + 1;
    }
  }
  return result;
}

bool mutateLines(std::string &text, Rng &rng) {
  std::vector<Span> all = lines(text);
  if (all.size() < 2)
    return false;
  Span a = all[below(rng, all.size())], b = all[below(rng, all.size())];
  std::string lineA = text.substr(a.begin, a.size());
  std::string lineB = text.substr(b.begin, b.size());
  switch (below(rng, 3)) {
  case 0: // deleted
    replace(text, {a.begin, std::min(a.end + 1, text.size())}, "");
    return true;
  case 1: // duplicated before another line
    text.insert(b.begin, lineA + "\n");
    return true;
  default: // two swapped
    if (a.begin == b.begin)
      return false;
    if (a.begin > b.begin)
      std::swap(a, b), std::swap(lineA, lineB);
    replace(text, b, lineA);
    replace(text, a, lineB);
    return true;
  }
}

} // namespace

bool gemm_fuzz::mutateText(std::string &text, std::mt19937_64 &rng) {
  // Out of 20: the config 8, the matmul 5, the option line 2, an integer 4,
  // lines 1 (they break multi-line ops more often than not).
  size_t kind = below(rng, 20);
  if (kind < 8)
    return mutateConfig(text, rng);
  if (kind < 13)
    return mutateMatmul(text, rng);
  if (kind < 15)
    return mutateOptions(text, rng);
  if (kind < 19)
    return mutateInteger(text, rng);
  return mutateLines(text, rng);
}
