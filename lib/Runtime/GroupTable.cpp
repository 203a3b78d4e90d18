//===- GroupTable.cpp - Group tables, offsets and --groups on the host ----===//

#include "gemm/Runtime/GroupTable.h"

#include "gemm/Runtime/Error.h"

#include <cstdlib>
#include <random>

namespace gemm::runtime::grouped {

std::vector<uint32_t> buildGroupTable(const std::vector<int64_t> &offsets,
                                      uint64_t rows, uint64_t unitRows,
                                      uint64_t capacityEntries) {
  std::vector<uint32_t> table(HeaderWords + EntryWords * capacityEntries, 0);
  uint64_t groups = offsets.empty() ? 0 : offsets.size() - 1;
  uint64_t units = 0;
  uint32_t error = 0;
  for (uint64_t g = 0; g < groups; ++g) {
    GroupRows rowsOf = groupRows(offsets[g], offsets[g + 1], rows);
    if (!rowsOf.valid && error == 0)
      error = uint32_t(g + 1);
    uint64_t count = unitsOf(rowsOf, unitRows);
    for (uint64_t u = 0; u < count; ++u)
      writeUnit(table.data(), capacityEntries, units, u, rowsOf, uint32_t(g),
                unitRows);
    units += count;
  }
  table[0] = error ? 0 : uint32_t(units);
  table[1] = error;
  return table;
}

std::vector<std::string> checkGroupOffsets(const std::vector<int64_t> &offsets,
                                           uint64_t rows) {
  std::vector<std::string> errors;
  if (offsets.size() < 2) {
    errors.push_back("grouped problem: a group count of 0 (the offsets need "
                     "G + 1 >= 2 entries, got " +
                     std::to_string(offsets.size()) +
                     "); give at least one group");
    return errors;
  }
  if (offsets[0] < 0)
    errors.push_back(
        "grouped problem: offsets[0] = " + std::to_string(offsets[0]) +
        " is negative; group 0 starts at a row of A (>= 0)");
  for (size_t g = 0; g + 1 < offsets.size(); ++g) {
    if (offsets[g + 1] < offsets[g])
      errors.push_back("grouped problem: the offsets decrease at group " +
                       std::to_string(g) + " (offsets[" + std::to_string(g) +
                       "] = " + std::to_string(offsets[g]) + " > offsets[" +
                       std::to_string(g + 1) +
                       "] = " + std::to_string(offsets[g + 1]) +
                       "); they are a prefix sum of the groups' rows");
    else if (offsets[g + 1] >= 0 && uint64_t(offsets[g + 1]) > rows)
      errors.push_back("grouped problem: group " + std::to_string(g) +
                       " ends at row " + std::to_string(offsets[g + 1]) +
                       ", past the end of A (" + std::to_string(rows) +
                       " rows)");
  }
  if (rows >= (uint64_t(1) << 31))
    errors.push_back("grouped problem: " + std::to_string(rows) +
                     " rows of A; grouped kernels index rows with 32 bits "
                     "(below 2^31)");
  return errors;
}

std::vector<int64_t> offsetsOf(const std::vector<uint64_t> &rowsPerGroup) {
  std::vector<int64_t> offsets = {0};
  for (uint64_t rows : rowsPerGroup)
    offsets.push_back(offsets.back() + int64_t(rows));
  return offsets;
}

namespace {

uint64_t parseCount(const std::string &text, const std::string &what,
                    const std::string &spec) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw Error(ErrorKind::Usage, "--groups " + spec + ": " + what + " '" +
                                      text + "' is not a non-negative integer");
  return std::strtoull(text.c_str(), nullptr, 10);
}

} // namespace

std::vector<uint64_t> parseGroups(const std::string &spec) {
  const std::string prefix = "random:";
  std::vector<std::string> fields;
  std::string rest =
      spec.rfind(prefix, 0) == 0 ? spec.substr(prefix.size()) : spec;
  char separator = spec.rfind(prefix, 0) == 0 ? ':' : ',';
  size_t start = 0;
  while (true) {
    size_t end = rest.find(separator, start);
    fields.push_back(rest.substr(start, end - start));
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  std::vector<uint64_t> rows;
  if (spec.rfind(prefix, 0) != 0) {
    for (const std::string &field : fields)
      rows.push_back(parseCount(field, "group size", spec));
  } else {
    if (fields.size() != 3)
      throw Error(ErrorKind::Usage,
                  "--groups " + spec +
                      ": the generator is random:G:totalM:seed (e.g. "
                      "random:64:16384:1)");
    uint64_t groups = parseCount(fields[0], "group count G", spec);
    uint64_t total = parseCount(fields[1], "total rows", spec);
    uint64_t seed = parseCount(fields[2], "seed", spec);
    if (groups == 0)
      throw Error(ErrorKind::Usage, "--groups " + spec +
                                        ": a group count of 0; give at least "
                                        "one group");
    // A router's uneven load: every row picks a group with probability
    // proportional to a random weight (some near 0, so some groups get few
    // or no rows).
    std::mt19937_64 random(seed);
    std::vector<double> weights(groups);
    std::exponential_distribution<double> weight(1.0);
    for (double &w : weights)
      w = weight(random);
    std::discrete_distribution<uint64_t> pick(weights.begin(), weights.end());
    rows.assign(groups, 0);
    for (uint64_t r = 0; r < total; ++r)
      ++rows[pick(random)];
  }
  if (rows.empty())
    throw Error(ErrorKind::Usage, "--groups " + spec +
                                      ": a group count of 0; give at least one "
                                      "group");
  return rows;
}

std::optional<std::vector<uint64_t>> tryParseGroups(const std::string &spec,
                                                    std::string &error) {
  try {
    return parseGroups(spec);
  } catch (const Error &e) {
    error = e.what();
    return std::nullopt;
  }
}

} // namespace gemm::runtime::grouped
