#include "core/vault/index_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "core/json/parse.hpp"
#include "core/memory/lines.hpp"

namespace gv {

namespace {

using OrderedJson = nlohmann::ordered_json;

Finding warning(std::string_view path, std::string id, std::string message) {
  Finding finding;
  finding.check = "stale-index";
  finding.severity = Severity::warning;
  finding.path = std::string(path);
  finding.id = std::move(id);
  finding.message = std::move(message);
  finding.fix = "git vault index";
  return finding;
}

std::optional<std::int64_t> as_count(const OrderedJson& value) {
  constexpr auto k_max = std::numeric_limits<std::int64_t>::max();
  if (value.is_number_unsigned()) {
    const auto count = value.get<std::uint64_t>();
    return count <= static_cast<std::uint64_t>(k_max)
               ? std::optional(static_cast<std::int64_t>(count))
               : std::nullopt;
  }
  if (value.is_number_integer()) {
    const auto count = value.get<std::int64_t>();
    return count >= 0 ? std::optional(count) : std::nullopt;
  }
  // `5.0` is still a count; anything fractional, negative or huge is not.
  if (value.is_number_float()) {
    const double number = value.get<double>();
    if (number >= 0 && number < 9.0e15 &&
        number == static_cast<double>(static_cast<std::int64_t>(number))) {
      return static_cast<std::int64_t>(number);
    }
  }
  return std::nullopt;
}

}  // namespace

IndexReadResult read_index(std::string_view path, std::string_view bytes) {
  IndexReadResult result;
  auto parsed = json_text::parse<OrderedJson>(bytes);
  if (const auto* failure = std::get_if<json_text::ParseFailure>(&parsed)) {
    Finding finding;
    finding.check = "stale-index";
    finding.path = std::string(path);
    finding.line = static_cast<int>(failure->line);
    finding.message = fmt::format("invalid JSON: {}", failure->reason);
    finding.fix = "git vault index";
    result.findings.push_back(std::move(finding));
    return result;
  }
  OrderedJson document = std::move(std::get<OrderedJson>(parsed));
  if (!document.is_object()) {
    Finding finding;
    finding.check = "stale-index";
    finding.path = std::string(path);
    finding.line = 1;
    finding.message = "not a JSON object";
    finding.fix = "git vault index";
    result.findings.push_back(std::move(finding));
    return result;
  }

  ExistingIndex index;
  const auto entries = document.find("entries");
  if (entries == document.end() || !entries->is_array()) {
    result.findings.push_back(warning(path, "", "no `entries` array"));
  } else {
    std::size_t position = 0;
    for (const OrderedJson& entry : *entries) {
      ++position;
      const auto id = entry.is_object() ? entry.find("id") : entry.end();
      if (!entry.is_object() || id == entry.end() || !id->is_string() ||
          id->get_ref<const std::string&>().empty()) {
        result.findings.push_back(
            warning(path, "", fmt::format("entry {} has no id and is ignored", position)));
        continue;
      }
      IndexEntryRecord record;
      record.id = id->get<std::string>();
      if (const auto count = entry.find("retrieval_count"); count != entry.end()) {
        if (const auto value = as_count(*count)) {
          record.retrieval_count = *value;
        } else {
          result.findings.push_back(
              warning(path, record.id, "retrieval_count is not a non-negative integer"));
        }
      }
      if (const auto last = entry.find("last_retrieved");
          last != entry.end() && !last->is_null() &&
          !(last->is_string() && last->get_ref<const std::string&>().empty())) {
        record.last_retrieved =
            last->is_string() ? parse_date(last->get_ref<const std::string&>()) : std::nullopt;
        if (!record.last_retrieved) {
          result.findings.push_back(warning(path, record.id, "last_retrieved is not a date"));
        }
      }
      index.entries.push_back(std::move(record));
    }
  }
  index.document = std::move(document);
  result.index = std::move(index);
  return result;
}

}  // namespace gv
