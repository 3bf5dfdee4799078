#include "core/vault/index_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "core/json/parse.hpp"
#include "core/vault/index_scan.hpp"

namespace gv {

namespace {

using OrderedJson = nlohmann::ordered_json;

Finding index_warning(std::string_view path, std::string id, std::string message) {
  Finding finding;
  finding.check = "stale-index";
  finding.severity = Severity::warning;
  finding.path = std::string(path);
  finding.id = std::move(id);
  finding.message = std::move(message);
  finding.fix = "git vault index";
  return finding;
}

// Reads what IndexEntryRecord needs while the parser walks the bytes, without building the
// document (at 10,000 memories it cost more time and memory than the rest of a report): the same
// records and findings, in the same order, as reading the document would give (nlohmann keeps the
// last of repeated keys, and so does this).
class EntriesReader final : public nlohmann::json_sax<OrderedJson> {
 public:
  EntriesReader(std::string_view path, std::string_view text) : m_path(path), m_text(text) {}

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
  // A syntax error, or a number out of range (`1e400`), described as json_text::parse does.
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& error) override {
    m_failure = json_text::describe_failure(m_text, error);
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
      result.findings.push_back(index_warning(m_path, "", "no `entries` array"));
    } else {
      result.findings.insert(result.findings.end(), m_entry_findings.begin(),
                             m_entry_findings.end());
      index.entries = std::move(m_records);
    }
    result.index = std::move(index);
  }

  [[nodiscard]] const std::optional<json_text::ParseFailure>& failure() const { return m_failure; }

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
        index_warning(m_path, "", fmt::format("entry {} has no id and is ignored", m_position)));
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
            index_warning(m_path, record.id, "retrieval_count is not a non-negative integer"));
      }
    }
    if (m_last && m_last->kind != Kind::null &&
        !(m_last->kind == Kind::text && m_last->text.empty())) {
      record.last_retrieved = m_last->kind == Kind::text ? parse_date(m_last->text) : std::nullopt;
      if (!record.last_retrieved) {
        m_entry_findings.push_back(
            index_warning(m_path, record.id, "last_retrieved is not a date"));
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
  std::string_view m_text;
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
  std::optional<json_text::ParseFailure> m_failure;
};

}  // namespace

IndexReadResult read_index(std::string_view path, std::string_view bytes) {
  // The files git-vault writes read cleanly: the one-pass scanner answers for them.
  if (std::optional<ExistingIndex> clean = scan_clean_index(bytes)) {
    IndexReadResult result;
    result.index = std::move(clean);
    return result;
  }
  return read_index_fully(path, bytes);
}

IndexReadResult read_index_fully(std::string_view path, std::string_view bytes) {
  IndexReadResult result;
  // The same depth limit as json_text::parse, checked before the parser walks the bytes.
  std::optional<json_text::ParseFailure> failure;
  if (const std::optional<std::size_t> offset = json_text::too_deep(bytes)) {
    failure = json_text::ParseFailure{*offset, json_text::line_of_offset(bytes, *offset),
                                      "arrays and objects nested more than " +
                                          std::to_string(json_text::k_max_depth) + " levels deep"};
  }
  EntriesReader reader(path, bytes);
  if (!failure && !OrderedJson::sax_parse(bytes.begin(), bytes.end(), &reader)) {
    failure = reader.failure();
  }
  if (failure) {
    Finding finding;
    finding.check = "stale-index";
    finding.path = std::string(path);
    finding.line = static_cast<int>(failure->line);
    finding.message = fmt::format("invalid JSON: {}", failure->reason);
    finding.fix = "git vault index";
    result.findings.push_back(std::move(finding));
    return result;
  }
  ExistingIndex index;
  reader.finish(result, index);
  return result;
}

}  // namespace gv
