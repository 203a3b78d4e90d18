//===- GroupProblems.cpp - General groups on the host ---------------------===//

#include "gemm/Runtime/GroupProblems.h"

#include "gemm/Runtime/Error.h"

#include <fstream>
#include <limits>
#include <random>
#include <sstream>

namespace gemm::runtime::general {

const char *describe(GroupError error) {
  switch (error) {
  case GroupError::None:
    return "no error";
  case GroupError::NegativeSize:
    return "M, N or K is negative";
  case GroupError::EmptyK:
    return "K is 0 while M and N are not (C would be the epilogue of 0, "
           "which the kernel does not compute: leave such a group out or "
           "clear its C)";
  case GroupError::NullPointer:
    return "a matrix of a group with tiles is at address 0";
  case GroupError::MisalignedPointer:
    return "a matrix address is not a multiple of 16 bytes (TMA)";
  case GroupError::ShortLeadingDim:
    return "a leading dimension is below the length of its matrix's lines";
  case GroupError::MisalignedLeadingDim:
    return "a leading dimension x element bytes is not a multiple of 16 "
           "(TMA)";
  case GroupError::TooLarge:
    return "a leading dimension x element bytes reaches 2^40 (TMA)";
  case GroupError::TooManyUnits:
    return "the groups' tile units reach 2^31 (the kernel's 32-bit unit "
           "numbers)";
  case GroupError::PartialOutputChunk:
    return "C's lines are not a multiple of 16 bytes: a TMA store writes a "
           "line's last 16-byte chunk whole, past the line's end";
  }
  return "unknown error";
}

std::vector<uint32_t> buildGeneralTable(
    const std::vector<GroupProblem> &groups, const GroupLayouts &layouts,
    uint32_t unitRows, uint32_t unitCols,
    std::vector<std::optional<std::array<TensorMapFields, 3>>> *maps) {
  std::vector<uint32_t> table((HeaderBytes + EntryBytes * groups.size()) / 4,
                              0);
  if (maps)
    maps->assign(groups.size(), std::nullopt);
  uint64_t units = 0;
  uint64_t firstBad = 0;
  GroupError reason = GroupError::None;
  for (uint64_t g = 0; g < groups.size(); ++g) {
    GroupError error = checkGroup(groups[g], layouts);
    uint64_t count =
        error == GroupError::None ? unitsOf(groups[g], unitRows, unitCols) : 0;
    if (error == GroupError::None && units + count >= (uint64_t(1) << 31))
      error = GroupError::TooManyUnits;
    if (error != GroupError::None && reason == GroupError::None) {
      firstBad = g;
      reason = error;
    }
    writeEntry(table.data(), g, units, groups[g]);
    if (maps && writesMaps(error, count))
      (*maps)[g] = std::array<TensorMapFields, 3>{
          tensorMapFields(groups[g], layouts, 0),
          tensorMapFields(groups[g], layouts, 1),
          tensorMapFields(groups[g], layouts, 2)};
    units += count;
  }
  bool valid = reason == GroupError::None;
  table[0] = valid ? uint32_t(units) : 0;
  table[1] = valid ? 0 : uint32_t(firstBad + 1);
  table[2] = uint32_t(reason);
  return table;
}

std::vector<std::string> checkGroups(const std::vector<GroupProblem> &groups,
                                     const GroupLayouts &layouts) {
  std::vector<std::string> errors;
  if (groups.empty()) {
    errors.push_back("general grouped problem: a group count of 0; give at "
                     "least one group");
    return errors;
  }
  const char *names[3] = {"a", "b", "c"};
  for (size_t g = 0; g < groups.size(); ++g) {
    const GroupProblem &p = groups[g];
    std::string where = "group " + std::to_string(g) + " (m " +
                        std::to_string(p.m) + ", n " + std::to_string(p.n) +
                        ", k " + std::to_string(p.k) + "): ";
    GroupError error = checkGroup(p, layouts);
    if (error == GroupError::None)
      continue;
    std::string detail;
    if (error != GroupError::NegativeSize && error != GroupError::EmptyK)
      for (int which = 0; which < 3 && detail.empty(); ++which) {
        // The operand that breaks the rule, with its values.
        Extent e = extentOf(p, layouts, which);
        std::string name = names[which];
        if (error == GroupError::NullPointer && e.address == 0)
          detail = name + " is at address 0";
        else if (error == GroupError::MisalignedPointer && e.address % 16)
          detail = name + " at 0x" + [&] {
            std::ostringstream os;
            os << std::hex << e.address;
            return os.str();
          }() + " is not 16-byte aligned";
        else if (error == GroupError::ShortLeadingDim &&
                 (e.ld < 0 || uint64_t(e.ld) < e.inner))
          detail = "ld" + name + " " + std::to_string(e.ld) +
                   " is below its lines' length " + std::to_string(e.inner);
        else if (error == GroupError::MisalignedLeadingDim && e.ld >= 0 &&
                 uint64_t(e.ld) * e.elementBytes % 16)
          detail = "ld" + name + " " + std::to_string(e.ld) + " x " +
                   std::to_string(e.elementBytes) + " bytes = " +
                   std::to_string(uint64_t(e.ld) * e.elementBytes) +
                   " is not a multiple of 16; pad the lines to a multiple "
                   "of " +
                   std::to_string(16 / e.elementBytes) + " elements";
        else if (error == GroupError::TooLarge && e.ld >= 0 &&
                 uint64_t(e.ld) * e.elementBytes >= (uint64_t(1) << 40))
          detail =
              "ld" + name + " " + std::to_string(e.ld) + " reaches 2^40 bytes";
        else if (error == GroupError::PartialOutputChunk && which == 2) {
          uint64_t chunk = 16 / e.elementBytes;
          uint64_t spill = (chunk - e.inner % chunk) % chunk;
          detail = "lines of " + std::to_string(e.inner) + " x " +
                   std::to_string(e.elementBytes) + " bytes would have the " +
                   std::to_string(spill) +
                   " elements after each overwritten; give C lines of a "
                   "multiple of " +
                   std::to_string(chunk) + " elements (" +
                   (layouts.cColumns ? "M" : "N") +
                   " padded, the extra ones yours to drop)";
        }
      }
    errors.push_back(where + describe(error) +
                     (detail.empty() ? "" : ": " + detail));
  }
  return errors;
}

namespace {

int64_t parseSize(const std::string &text, const std::string &where) {
  try {
    size_t used = 0;
    long long value = std::stoll(text, &used);
    if (used != text.size())
      throw std::invalid_argument(text);
    if (value > std::numeric_limits<int32_t>::max() ||
        value < std::numeric_limits<int32_t>::min())
      throw Error(ErrorKind::Usage, where + ": " + text +
                                        " does not fit the 32-bit sizes of "
                                        "a group record");
    return value;
  } catch (const Error &) {
    throw;
  } catch (const std::exception &) {
    throw Error(ErrorKind::Usage, where + ": '" + text + "' is not an integer");
  }
}

} // namespace

std::vector<GroupSize> parseGroupProblems(const std::string &spec) {
  std::vector<GroupSize> sizes;
  if (spec.rfind("random:", 0) == 0) {
    std::string rest = spec.substr(7);
    size_t colon = rest.find(':');
    if (colon == std::string::npos)
      throw Error(ErrorKind::Usage,
                  "--group-problems " + spec + ": expected random:G:SEED");
    int64_t groups = parseSize(rest.substr(0, colon), "--group-problems G");
    int64_t seed = parseSize(rest.substr(colon + 1), "--group-problems SEED");
    if (groups <= 0 || groups > 65536)
      throw Error(ErrorKind::Usage,
                  "--group-problems " + spec + ": G must be 1..65536");
    std::mt19937_64 rng(uint64_t(seed) * 0x9e3779b97f4a7c15ull + 17);
    for (int64_t g = 0; g < groups; ++g) {
      GroupSize s;
      // One group in eight empty, as a router leaves some experts idle.
      // M, N, K multiples of 8: lines of C (N long, or M for a
      // column-major C) that TMA stores can take (storesWholeChunks).
      s.m = rng() % 8 == 0 ? 0 : int64_t(rng() % 128 + 1) * 8;
      s.n = int64_t(rng() % 256 + 1) * 8;
      s.k = int64_t(rng() % 256 + 1) * 8;
      sizes.push_back(s);
    }
    return sizes;
  }
  std::ifstream in(spec);
  if (!in)
    throw Error(ErrorKind::Usage,
                "--group-problems " + spec +
                    ": cannot read the file (one \"M N K\" per line), and it "
                    "is not random:G:SEED");
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    size_t hash = line.find('#');
    if (hash != std::string::npos)
      line.resize(hash);
    std::istringstream fields(line);
    std::vector<std::string> words;
    for (std::string word; fields >> word;)
      words.push_back(word);
    if (words.empty())
      continue;
    std::string where = spec + ":" + std::to_string(number);
    if (words.size() != 3)
      throw Error(ErrorKind::Usage, where + ": expected \"M N K\", got " +
                                        std::to_string(words.size()) +
                                        " fields");
    GroupSize s{parseSize(words[0], where + " M"),
                parseSize(words[1], where + " N"),
                parseSize(words[2], where + " K")};
    // Negative sizes are the records' rules to refuse (checkGroups, or the
    // prep kernel with --group-checks device), with the group named.
    sizes.push_back(s);
  }
  if (sizes.empty())
    throw Error(ErrorKind::Usage,
                "--group-problems " + spec + ": no group (a group count of 0)");
  return sizes;
}

std::optional<std::vector<GroupSize>>
tryParseGroupProblems(const std::string &spec, std::string &error) {
  try {
    return parseGroupProblems(spec);
  } catch (const Error &e) {
    error = e.what();
    return std::nullopt;
  }
}

GroupPacking packGroups(const std::vector<GroupSize> &sizes,
                        const GroupLayouts &layouts, bool padInputs) {
  GroupPacking packing;
  for (size_t g = 0; g < sizes.size(); ++g) {
    GroupProblem p;
    p.m = int32_t(sizes[g].m);
    p.n = int32_t(sizes[g].n);
    p.k = int32_t(sizes[g].k);
    std::array<uint64_t, 3> offsets{}, lds{};
    for (int which = 0; which < 3; ++which) {
      Extent e = extentOf(p, layouts, which);
      uint64_t align = 16 / e.elementBytes;
      uint64_t ld = (e.inner + align - 1) / align * align;
      if (ld == 0)
        ld = align;
      if (padInputs && which < 2 && g % 2 == 1)
        ld += align;
      offsets[which] = packing.elements[which];
      lds[which] = ld;
      packing.elements[which] += ld * e.outer;
    }
    packing.offsets.push_back(offsets);
    packing.lds.push_back(lds);
  }
  return packing;
}

std::vector<GroupProblem> groupRecords(const std::vector<GroupSize> &sizes,
                                       const GroupPacking &packing,
                                       const GroupLayouts &layouts, uint64_t a,
                                       uint64_t b, uint64_t c) {
  std::vector<GroupProblem> records;
  for (size_t g = 0; g < sizes.size(); ++g) {
    GroupProblem p;
    p.m = int32_t(sizes[g].m);
    p.n = int32_t(sizes[g].n);
    p.k = int32_t(sizes[g].k);
    p.a = a + packing.offsets[g][0] * layouts.inputBytes;
    p.b = b + packing.offsets[g][1] * layouts.inputBytes;
    p.c = c + packing.offsets[g][2] * layouts.outputBytes;
    p.lda = int64_t(packing.lds[g][0]);
    p.ldb = int64_t(packing.lds[g][1]);
    p.ldc = int64_t(packing.lds[g][2]);
    records.push_back(p);
  }
  return records;
}

std::string describeTableError(uint32_t error, uint32_t reason,
                               uint64_t groups) {
  if (error == 0)
    return "";
  return "group " + std::to_string(error - 1) + " (of " +
         std::to_string(groups) +
         "): " + describe(static_cast<GroupError>(reason));
}

} // namespace gemm::runtime::general
