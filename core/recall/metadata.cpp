#include "core/recall/metadata.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "core/error.hpp"
#include "core/json/parse.hpp"
#include "core/recall/entry.hpp"
#include "core/recall/files.hpp"
#include "core/recall/metadata_scan.hpp"

namespace gv::recall {
namespace {

using nlohmann::json;

constexpr std::string_view k_active = "active";

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool digits_at(std::string_view text, std::size_t pos, std::size_t count) {
  if (pos + count > text.size()) {
    return false;
  }
  return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(pos),
                     text.begin() + static_cast<std::ptrdiff_t>(pos + count), is_digit);
}

bool is_date_shape(std::string_view text) {
  return text.size() == 10 && digits_at(text, 0, 4) && text[4] == '-' && digits_at(text, 5, 2) &&
         text[7] == '-' && digits_at(text, 8, 2);
}

// `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or `±HH:MM`: the timestamps read without a
// warning (doc/vault-format.md, "Working-memory metadata").
bool is_timestamp_shape(std::string_view text) {
  if (text.size() < 20 || !is_date_shape(text.substr(0, 10)) || text[10] != 'T' ||
      !digits_at(text, 11, 2) || text[13] != ':' || !digits_at(text, 14, 2) || text[16] != ':' ||
      !digits_at(text, 17, 2)) {
    return false;
  }
  std::size_t pos = 19;
  if (text[pos] == '.') {
    ++pos;
    const std::size_t digits_start = pos;
    while (pos < text.size() && is_digit(text[pos])) {
      ++pos;
    }
    if (pos == digits_start) {
      return false;
    }
  }
  const std::string_view zone = text.substr(pos);
  return zone == "Z" || (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') &&
                         digits_at(zone, 1, 2) && zone[3] == ':' && digits_at(zone, 4, 2));
}

// The line of each top-level key, for messages about records the general reader read (the fast
// path notes its lines as it goes). Strings are skipped whole, so a key's text inside a value is
// never taken for the key. A key written twice has its last line: the document keeps the last
// value. `bytes` is valid JSON.
// Every top-level key of a JSON object with its line, in file order (escapes left as written).
std::vector<std::pair<std::string_view, std::size_t>> top_level_keys(std::string_view bytes) {
  std::vector<std::pair<std::string_view, std::size_t>> keys;
  std::size_t line = 1;
  int depth = 0;
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    const char c = bytes[at];
    if (c == '\n') {
      ++line;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == '"') {
      const std::size_t begin = at + 1;
      for (at = begin; at < bytes.size() && bytes[at] != '"'; ++at) {
        at += bytes[at] == '\\' ? 1 : 0;
      }
      std::size_t next = at + 1;
      while (next < bytes.size() && (bytes[next] == ' ' || bytes[next] == '\t' ||
                                     bytes[next] == '\r' || bytes[next] == '\n')) {
        ++next;
      }
      if (depth == 1 && next < bytes.size() && bytes[next] == ':') {
        keys.emplace_back(bytes.substr(begin, at - begin), line);
      }
    }
  }
  return keys;
}

std::unordered_map<std::string_view, std::size_t> top_level_key_lines(std::string_view bytes) {
  std::unordered_map<std::string_view, std::size_t> lines;
  for (const auto& [key, line] : top_level_keys(bytes)) {
    lines.insert_or_assign(key, line);
  }
  return lines;
}

class Reader {
 public:
  Reader(std::string_view bytes, std::string_view path) : m_bytes(bytes), m_path(path) {}

  MetadataRead read() {
    if (std::optional<std::vector<RawRecord>> flat = scan_flat_metadata(m_bytes)) {
      return interpret(*flat);
    }
    return read_fully();
  }

  // The general reader: a JSON document, which also says what is wrong with a file that is not
  // an object of objects.
  MetadataRead read_fully() {
    auto parsed = json_text::parse<json>(m_bytes);
    if (const auto* failure = std::get_if<json_text::ParseFailure>(&parsed)) {
      throw MetadataError(m_path, static_cast<int>(failure->line),
                          "invalid JSON: " + failure->reason);
    }
    const json document = std::move(std::get<json>(parsed));
    if (!document.is_object()) {
      throw MetadataError(
          m_path, 1,
          fmt::format("expected a JSON object keyed by id, found {}", document.type_name()));
    }
    std::vector<RawRecord> records;  // in key order, as the document's map holds them
    records.reserve(document.size());
    for (const auto& [key, value] : document.items()) {
      if (!value.is_object()) {
        throw MetadataError(
            m_path, static_cast<int>(line_of(key)),
            fmt::format("record `{}` must be an object, found {}", key, value.type_name()));
      }
      RawRecord record;
      record.key = key;
      for (const auto& [field, field_value] : value.items()) {
        record.fields.emplace_back(field, raw_value(field_value));
      }
      records.push_back(std::move(record));
    }
    MetadataRead result = interpret(records);
    // A JSON document keeps a repeated key's last record: said, since the next write drops the
    // others. (The fast path leaves such files to this reader.)
    for (const RepeatedKey& repeated : repeated_keys(m_bytes)) {
      Finding finding;
      finding.check = "metadata";
      finding.severity = Severity::warning;
      finding.path = std::string{m_path};
      finding.line = repeated.line;
      finding.id = repeated.key;
      finding.message =
          repeated_key_message(repeated) + "; the last is read, and the next write keeps only it";
      result.findings.push_back(std::move(finding));
    }
    return result;
  }

 private:
  static RawValue raw_value(const json& value) {
    RawValue raw;
    raw.node = &value;
    if (value.is_null()) {
      raw.kind = RawValue::Kind::null;
    } else if (value.is_boolean()) {
      raw.kind = RawValue::Kind::boolean;
      raw.boolean = value.get<bool>();
    } else if (value.is_string()) {
      raw.kind = RawValue::Kind::string;
      raw.text = value.get_ref<const std::string&>();
    } else {
      raw.kind = RawValue::Kind::other;
    }
    return raw;
  }

  // `records` sorted by key. Canonical keys first, so a variant spelling (`^trX`) never
  // displaces the record stored under the real id (`trX`).
  MetadataRead interpret(const std::vector<RawRecord>& records) {
    for (const bool canonical : {true, false}) {
      for (const RawRecord& record : records) {
        if (is_valid_id(record.key) == canonical) {
          read_record(record);
        }
      }
    }
    return std::move(m_result);
  }

  std::size_t line_of(std::string_view key) {
    if (!m_key_lines) {
      m_key_lines = top_level_key_lines(m_bytes);
    }
    const auto it = m_key_lines->find(key);
    return it == m_key_lines->end() ? 1 : it->second;  // a key written with escapes
  }

  void warn(const RawRecord& raw, std::string id, std::string message) {
    Finding finding;
    finding.check = "metadata";
    finding.severity = Severity::warning;
    finding.path = std::string{m_path};
    finding.line = static_cast<int>(raw.line > 0 ? raw.line : line_of(raw.key));
    finding.id = std::move(id);
    finding.message = std::move(message);
    m_result.findings.push_back(std::move(finding));
  }

  std::string normalise_key(const RawRecord& raw) {
    const std::string_view key = raw.key;
    if (is_valid_id(key)) {
      return std::string{key};
    }
    if (key.starts_with('^') && is_valid_id(key.substr(1))) {
      std::string id{key.substr(1)};
      warn(raw, id, fmt::format("key `{}` has a caret; read as `{}`", key, id));
      return id;
    }
    if (std::string id = fmt::format("tr{}", key); is_valid_id(id)) {
      warn(raw, id, fmt::format("key `{}` lacks the `tr` prefix; read as `{}`", key, id));
      return id;
    }
    warn(raw, std::string{key},
         fmt::format("key `{}` is not an id (`tr` and 10 lowercase hex digits); kept as written",
                     key));
    return std::string{key};
  }

  std::optional<std::string> read_timestamp(const RawRecord& raw, const std::string& id,
                                            std::string_view field) {
    const RawValue* value = raw.find(field);
    if (value == nullptr || value->kind == RawValue::Kind::null) {
      return std::nullopt;
    }
    if (value->kind != RawValue::Kind::string) {
      warn(raw, id, fmt::format("`{}` is not a string; treated as missing", field));
      return std::nullopt;
    }
    std::string text{value->text};
    if (is_date_shape(text)) {
      warn(raw, id,
           fmt::format("`{}` is a date without a time (`{}`); read as midnight UTC", field, text));
    } else if (!is_timestamp_shape(text)) {
      warn(raw, id, fmt::format("`{}` is not a timestamp (`{}`); treated as missing", field, text));
    }
    return text;
  }

  void read_record(const RawRecord& raw) {
    const std::string id = normalise_key(raw);
    Record record;
    record.created_at = read_timestamp(raw, id, "created_at");
    record.last_reviewed_at = read_timestamp(raw, id, "last_reviewed_at");
    record.snoozed_until = read_timestamp(raw, id, "snoozed_until");

    if (const RawValue* pinned = raw.find("pinned")) {
      if (pinned->kind == RawValue::Kind::boolean) {
        record.pinned = pinned->boolean;
      } else {
        warn(raw, id,
             fmt::format("`pinned` is not true or false ({}); read as false", pinned->dump()));
      }
    }
    if (const RawValue* status = raw.find("status")) {
      if (status->kind != RawValue::Kind::string) {
        warn(raw, id, fmt::format("`status` is not a string ({}); read as active", status->dump()));
      } else {
        record.status = status->text;
        if (record.status != k_active && record.status != "superseded" &&
            record.status != "archived") {
          warn(raw, id,
               fmt::format("status `{}` is not active, superseded or archived; kept as written",
                           record.status));
        }
      }
    }
    if (const RawValue* tier = raw.find("tier")) {
      if (tier->kind != RawValue::Kind::string) {
        warn(raw, id, fmt::format("`tier` is not a string ({}); ignored", tier->dump()));
      } else {
        record.tier = read_tier(raw, id, std::string{tier->text});
      }
    }
    for (const auto& [field, value] : raw.fields) {
      if (field != "created_at" && field != "last_reviewed_at" && field != "snoozed_until" &&
          field != "pinned" && field != "status" && field != "tier") {
        record.extra[std::string{field}] = value.to_json();
      }
    }

    // Records arrive in key order, so most go in at the end of the map without a search.
    Metadata& records = m_result.records;
    if (records.empty() || records.rbegin()->first < id) {
      records.emplace_hint(records.end(), id, std::move(record));
      return;
    }
    if (records.contains(id)) {
      // Two spellings of one id (`trX` and `^trX`): keep the second under its own key rather
      // than silently merging histories.
      warn(raw, id, fmt::format("key `{}` repeats id `{}`; kept as written", raw.key, id));
      records.emplace(std::string{raw.key}, std::move(record));
      return;
    }
    records.emplace(id, std::move(record));
  }

  std::string read_tier(const RawRecord& raw, const std::string& id, const std::string& tier) {
    if (parse_tier_name(tier)) {
      return tier;
    }
    // Older plugin versions stored the display path of the entry's file.
    const std::string relative = tier == "CLAUDE.local.md" ? tier : "memory/" + tier;
    if (const std::optional<Tier> from_path = tier_of(relative)) {
      const std::string name{tier_name(*from_path)};
      warn(raw, id, fmt::format("tier `{}` is a file path; read as `{}`", tier, name));
      return name;
    }
    warn(raw, id,
         fmt::format("tier `{}` is not working, register or archive; kept as written", tier));
    return tier;
  }

  std::string_view m_bytes;
  std::string_view m_path;
  std::optional<std::unordered_map<std::string_view, std::size_t>> m_key_lines;
  MetadataRead m_result;
};

}  // namespace

std::vector<RepeatedKey> repeated_keys(std::string_view bytes) {
  std::unordered_map<std::string_view, std::size_t> first;
  std::vector<RepeatedKey> repeated;
  for (const auto& [key, line] : top_level_keys(bytes)) {
    const auto [it, inserted] = first.emplace(key, line);
    if (!inserted) {
      repeated.push_back({std::string(key), static_cast<int>(it->second), static_cast<int>(line)});
    }
  }
  return repeated;
}

std::string repeated_key_message(const RepeatedKey& repeated) {
  return fmt::format("record `{}` is written twice (lines {} and {})", repeated.key,
                     repeated.first_line, repeated.line);
}

MetadataError::MetadataError(std::string_view path, int line, std::string problem)
    : Error("{}:{}: {}; fix: {}", path, line, problem, fix()),
      m_line(line),
      m_problem(std::move(problem)) {}

std::string MetadataError::fix() {
  return fmt::format(
      "correct it by hand, or restore a version that reads (`git log --oneline -- {0}`, then "
      "`git checkout <commit> -- {0}`)",
      k_metadata_path);
}

bool reads_as_time(std::string_view text) {
  return is_timestamp_shape(text) || is_date_shape(text);
}

MetadataRead parse_metadata(std::string_view bytes, std::string_view path) {
  return Reader{bytes, path}.read();
}

MetadataRead parse_metadata_fully(std::string_view bytes, std::string_view path) {
  return Reader{bytes, path}.read_fully();
}

std::string serialize_metadata(const Metadata& metadata) {
  json document = json::object();
  for (const auto& [id, record] : metadata) {
    json out = record.extra.is_object() ? record.extra : json::object();
    if (record.created_at) {
      out["created_at"] = *record.created_at;
    }
    if (record.last_reviewed_at) {
      out["last_reviewed_at"] = *record.last_reviewed_at;
    }
    out["pinned"] = record.pinned;
    out["snoozed_until"] = record.snoozed_until ? json(*record.snoozed_until) : json(nullptr);
    out["status"] = record.status;
    if (!record.tier.empty()) {
      out["tier"] = record.tier;
    }
    document[id] = std::move(out);
  }
  return document.dump(2) + "\n";
}

std::set<std::string> metadata_ids(const Metadata& metadata) {
  std::set<std::string> ids;
  for (const auto& [id, record] : metadata) {
    ids.insert(id);
  }
  return ids;
}

int add_missing_records(Metadata& metadata, const std::vector<InlineId>& inline_ids,
                        std::string_view now) {
  int added = 0;
  for (const InlineId& inline_id : inline_ids) {
    if (metadata.contains(inline_id.id)) {
      continue;
    }
    Record record;
    record.created_at = std::string{now};
    record.last_reviewed_at = std::string{now};
    record.tier = std::string{tier_name(inline_id.tier)};
    metadata.emplace(inline_id.id, std::move(record));
    ++added;
  }
  return added;
}

int recompute_tiers(Metadata& metadata, const std::vector<InlineId>& inline_ids) {
  int changed = 0;
  for (const InlineId& inline_id : inline_ids) {
    const auto it = metadata.find(inline_id.id);
    if (it == metadata.end()) {
      continue;
    }
    const std::string tier{tier_name(inline_id.tier)};
    if (it->second.tier != tier) {
      it->second.tier = tier;
      ++changed;
    }
  }
  return changed;
}

}  // namespace gv::recall
