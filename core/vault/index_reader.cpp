#include "core/vault/index_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <utility>

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

// nlohmann's message reads "[json.exception.parse_error.101] parse error at line 3, column 5:
// syntax error ..."; our Finding carries the line itself, so keep only the part after it.
std::string parse_error_reason(std::string_view what) {
  const std::size_t column = what.find(", column ");
  if (column != std::string_view::npos) {
    const std::size_t colon = what.find(": ", column);
    if (colon != std::string_view::npos) {
      return std::string(what.substr(colon + 2));
    }
  }
  const std::size_t bracket = what.find("] ");
  return std::string(bracket == std::string_view::npos ? what : what.substr(bracket + 2));
}

// Reads what IndexEntryRecord needs while the parser walks the bytes, without building the
// document (at 10,000 memories it cost more time and memory than the rest of a report): the same
// records and findings, in the same order, as reading the document would give (nlohmann keeps the
// last of repeated keys, and so does this).
class EntriesReader final : public nlohmann::json_sax<OrderedJson> {
 public:
  explicit EntriesReader(std::string_view path) : m_path(path) {}

  bool null() override { return scalar(Value{Kind::null, {}, 0, 0.0}); }
  bool boolean(bool) override { return scalar(Value{Kind::other, {}, 0, 0.0}); }
  bool number_integer(number_integer_t value) override {
    return scalar(Value{Kind::integer, {}, value, 0.0});
  }
  bool number_unsigned(number_unsigned_t value) override {
    constexpr auto k_max = std::numeric_limits<std::int64_t>::max();
    return scalar(value <= static_cast<number_unsigned_t>(k_max)
                      ? Value{Kind::integer, {}, static_cast<std::int64_t>(value), 0.0}
                      : Value{Kind::too_large, {}, 0, 0.0});
  }
  bool number_float(number_float_t value, const string_t&) override {
    return scalar(Value{Kind::real, {}, 0, value});
  }
  bool string(string_t& value) override {
    return scalar(Value{Kind::text, std::move(value), 0, 0.0});
  }
  bool binary(binary_t&) override { return scalar(Value{Kind::other, {}, 0, 0.0}); }

  bool start_object(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_array() override { return close(); }
  bool key(string_t& name) override {
    if (m_depth == 1) {
      m_top_key = name;
    } else if (m_depth == 3 && m_in_entries) {
      m_entry_key = name;
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& error) override {
    m_error.emplace(static_cast<const nlohmann::detail::parse_error&>(error));
    return false;
  }

  // Called after a successful parse.
  void finish(IndexReadResult& result, ExistingIndex& index) {
    if (!m_top_is_object) {
      Finding finding;
      finding.check = "stale-index";
      finding.path = std::string(m_path);
      finding.line = 1;
      finding.message = "not a JSON object";
      finding.fix = "git vault index";
      result.findings.push_back(std::move(finding));
      return;
    }
    if (!m_entries_array) {
      result.findings.push_back(warning(m_path, "", "no `entries` array"));
    } else {
      result.findings.insert(result.findings.end(), m_entry_findings.begin(),
                             m_entry_findings.end());
      index.entries = std::move(m_records);
    }
    result.index = std::move(index);
  }

  [[nodiscard]] const std::optional<nlohmann::detail::parse_error>& error() const {
    return m_error;
  }

 private:
  enum class Kind { null, integer, too_large, real, text, other };
  struct Value {
    Kind kind = Kind::other;
    std::string text;
    std::int64_t integer = 0;
    double real = 0.0;
  };

  // A value that is a scalar at `m_depth` (not inside it).
  bool scalar(Value value) {
    if (m_depth == 0) {
      return true;  // a top-level scalar: not an object
    }
    if (m_depth == 1 && m_top_key == "entries") {
      m_entries_array = false;  // `entries` is not an array
      return true;
    }
    if (m_depth == 2 && m_in_entries) {
      ++m_position;  // an entry that is not an object
      no_id();
      return true;
    }
    if (m_depth == 3 && m_in_entries && m_entry_is_object) {
      if (m_entry_key == "id") {
        m_id = std::move(value);
      } else if (m_entry_key == "retrieval_count") {
        m_count = std::move(value);
      } else if (m_entry_key == "last_retrieved") {
        m_last = std::move(value);
      } else if (m_entry_key == "tombstoned_at") {
        m_tombstoned = std::move(value);
      }
    }
    return true;
  }

  bool open(bool object) {
    if (m_depth == 0) {
      m_top_is_object = object;
    } else if (m_depth == 1 && m_top_key == "entries") {
      // A repeated `entries` key replaces the earlier value, as in the document.
      m_in_entries = !object;
      m_entries_array = !object;
      m_records.clear();
      m_entry_findings.clear();
      m_position = 0;
    } else if (m_depth == 2 && m_in_entries) {
      ++m_position;
      m_entry_is_object = object;
      m_id = m_count = m_last = m_tombstoned = std::nullopt;
    } else if (m_depth == 3 && m_in_entries && m_entry_is_object) {
      // A nested value under one of the entry's keys: neither a string nor a number.
      if (m_entry_key == "id") {
        m_id = Value{};
      } else if (m_entry_key == "retrieval_count") {
        m_count = Value{};
      } else if (m_entry_key == "last_retrieved") {
        m_last = Value{};
      } else if (m_entry_key == "tombstoned_at") {
        m_tombstoned = Value{};
      }
    }
    ++m_depth;
    return true;
  }

  bool close() {
    --m_depth;
    if (m_depth == 1 && m_in_entries) {
      m_in_entries = false;
    } else if (m_depth == 2 && m_in_entries) {
      finish_entry();
    }
    return true;
  }

  void no_id() {
    m_entry_findings.push_back(
        warning(m_path, "", fmt::format("entry {} has no id and is ignored", m_position)));
  }

  void finish_entry() {
    if (!m_entry_is_object || !m_id || m_id->kind != Kind::text || m_id->text.empty()) {
      no_id();
      return;
    }
    IndexEntryRecord record;
    record.id = std::move(m_id->text);
    if (m_count) {
      if (const auto value = as_count(*m_count)) {
        record.retrieval_count = *value;
      } else {
        m_entry_findings.push_back(
            warning(m_path, record.id, "retrieval_count is not a non-negative integer"));
      }
    }
    if (m_last && m_last->kind != Kind::null &&
        !(m_last->kind == Kind::text && m_last->text.empty())) {
      record.last_retrieved = m_last->kind == Kind::text ? parse_date(m_last->text) : std::nullopt;
      if (!record.last_retrieved) {
        m_entry_findings.push_back(warning(m_path, record.id, "last_retrieved is not a date"));
      }
    }
    if (m_tombstoned && m_tombstoned->kind == Kind::text) {
      record.tombstoned_at = std::move(m_tombstoned->text);
    }
    m_records.push_back(std::move(record));
  }

  static std::optional<std::int64_t> as_count(const Value& value) {
    if (value.kind == Kind::integer) {
      return value.integer >= 0 ? std::optional(value.integer) : std::nullopt;
    }
    // `5.0` is still a count; anything fractional, negative or huge is not.
    if (value.kind == Kind::real && value.real >= 0 && value.real < 9.0e15 &&
        value.real == static_cast<double>(static_cast<std::int64_t>(value.real))) {
      return static_cast<std::int64_t>(value.real);
    }
    return std::nullopt;
  }

  std::string_view m_path;
  std::size_t m_depth = 0;
  bool m_top_is_object = false;
  std::string m_top_key;
  bool m_entries_array = false;  // the (last) `entries` value is an array
  bool m_in_entries = false;     // inside that array
  std::size_t m_position = 0;
  bool m_entry_is_object = false;
  std::string m_entry_key;
  std::optional<Value> m_id;
  std::optional<Value> m_count;
  std::optional<Value> m_last;
  std::optional<Value> m_tombstoned;
  std::vector<IndexEntryRecord> m_records;
  std::vector<Finding> m_entry_findings;
  std::optional<nlohmann::detail::parse_error> m_error;
};

}  // namespace

IndexReadResult read_index(std::string_view path, std::string_view bytes) {
  IndexReadResult result;
  EntriesReader reader(path);
  if (!OrderedJson::sax_parse(bytes.begin(), bytes.end(), &reader)) {
    const nlohmann::detail::parse_error& error = *reader.error();
    // `byte` is 1-based and points at the character that failed.
    const std::size_t offset = error.byte == 0 ? 0 : error.byte - 1;
    Finding finding;
    finding.check = "stale-index";
    finding.path = std::string(path);
    finding.line = line_of_offset(bytes, offset);
    finding.message = fmt::format("invalid JSON: {}", parse_error_reason(error.what()));
    finding.fix = "git vault index";
    result.findings.push_back(std::move(finding));
    return result;
  }
  ExistingIndex index;
  reader.finish(result, index);
  return result;
}

}  // namespace gv
