#include "core/recall/metadata.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "core/error.hpp"
#include "core/json/parse.hpp"
#include "core/recall/entry.hpp"
#include "core/recall/files.hpp"

namespace gv::recall {
namespace {

using nlohmann::json;

constexpr std::string_view k_active = "active";

int line_of_offset(std::string_view bytes, std::size_t offset) {
  offset = std::min(offset, bytes.size());
  return 1 + static_cast<int>(std::count(
                 bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

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

class Reader {
 public:
  Reader(std::string_view bytes, std::string_view path) : m_bytes(bytes), m_path(path) {}

  MetadataRead read() {
    auto parsed = json_text::parse<json>(m_bytes);
    if (const auto* failure = std::get_if<json_text::ParseFailure>(&parsed)) {
      throw Error("{}", json_text::format_failure(m_path, *failure));
    }
    json document = std::move(std::get<json>(parsed));
    if (!document.is_object()) {
      throw Error("{}:1: expected a JSON object keyed by id, found {}", m_path,
                  document.type_name());
    }
    for (auto& [key, value] : document.items()) {
      if (!value.is_object()) {
        throw Error("{}:{}: record `{}` must be an object, found {}", m_path, line_of_key(key), key,
                    value.type_name());
      }
    }
    // Canonical keys first, so a variant spelling (`^trX`) never displaces the record stored
    // under the real id (`trX`).
    for (const bool canonical : {true, false}) {
      for (auto& [key, value] : document.items()) {
        if (is_valid_id(key) == canonical) {
          read_record(key, value);
        }
      }
    }
    return std::move(m_result);
  }

 private:
  int line_of_key(std::string_view key) const {
    const std::size_t at = m_bytes.find(fmt::format("\"{}\"", key));
    return at == std::string_view::npos ? 1 : line_of_offset(m_bytes, at);
  }

  void warn(std::string_view key, std::string id, std::string message) {
    Finding finding;
    finding.check = "metadata";
    finding.severity = Severity::warning;
    finding.path = std::string{m_path};
    finding.line = line_of_key(key);
    finding.id = std::move(id);
    finding.message = std::move(message);
    m_result.findings.push_back(std::move(finding));
  }

  std::string normalise_key(const std::string& key) {
    if (is_valid_id(key)) {
      return key;
    }
    if (key.starts_with('^') && is_valid_id(std::string_view{key}.substr(1))) {
      std::string id = key.substr(1);
      warn(key, id, fmt::format("key `{}` has a caret; read as `{}`", key, id));
      return id;
    }
    if (is_valid_id("tr" + key)) {
      std::string id = "tr" + key;
      warn(key, id, fmt::format("key `{}` lacks the `tr` prefix; read as `{}`", key, id));
      return id;
    }
    warn(key, key,
         fmt::format("key `{}` is not an id (`tr` and 10 lowercase hex digits); kept as written",
                     key));
    return key;
  }

  std::optional<std::string> read_timestamp(const std::string& key, const std::string& id,
                                            const json& record, std::string_view field) {
    const auto it = record.find(std::string{field});
    if (it == record.end() || it->is_null()) {
      return std::nullopt;
    }
    if (!it->is_string()) {
      warn(key, id, fmt::format("`{}` is not a string; treated as missing", field));
      return std::nullopt;
    }
    std::string value = it->get<std::string>();
    if (is_date_shape(value)) {
      warn(key, id,
           fmt::format("`{}` is a date without a time (`{}`); read as midnight UTC", field, value));
    } else if (!is_timestamp_shape(value)) {
      warn(key, id,
           fmt::format("`{}` is not a timestamp (`{}`); treated as missing", field, value));
    }
    return value;
  }

  void read_record(const std::string& key, const json& value) {
    const std::string id = normalise_key(key);
    Record record;
    record.created_at = read_timestamp(key, id, value, "created_at");
    record.last_reviewed_at = read_timestamp(key, id, value, "last_reviewed_at");
    record.snoozed_until = read_timestamp(key, id, value, "snoozed_until");

    if (const auto it = value.find("pinned"); it != value.end()) {
      if (it->is_boolean()) {
        record.pinned = it->get<bool>();
      } else {
        warn(key, id, fmt::format("`pinned` is not true or false ({}); read as false", it->dump()));
      }
    }
    if (const auto it = value.find("status"); it != value.end()) {
      if (!it->is_string()) {
        warn(key, id, fmt::format("`status` is not a string ({}); read as active", it->dump()));
      } else {
        record.status = it->get<std::string>();
        if (record.status != k_active && record.status != "superseded" &&
            record.status != "archived") {
          warn(key, id,
               fmt::format("status `{}` is not active, superseded or archived; kept as written",
                           record.status));
        }
      }
    }
    if (const auto it = value.find("tier"); it != value.end()) {
      if (!it->is_string()) {
        warn(key, id, fmt::format("`tier` is not a string ({}); ignored", it->dump()));
      } else {
        record.tier = read_tier(key, id, it->get<std::string>());
      }
    }
    for (const auto& [field, field_value] : value.items()) {
      if (field != "created_at" && field != "last_reviewed_at" && field != "snoozed_until" &&
          field != "pinned" && field != "status" && field != "tier") {
        record.extra[field] = field_value;
      }
    }

    if (m_result.records.contains(id)) {
      // Two spellings of one id (`trX` and `^trX`): keep the second under its own key rather
      // than silently merging histories.
      warn(key, id, fmt::format("key `{}` repeats id `{}`; kept as written", key, id));
      m_result.records.emplace(key, std::move(record));
      return;
    }
    m_result.records.emplace(id, std::move(record));
  }

  std::string read_tier(const std::string& key, const std::string& id, const std::string& tier) {
    if (parse_tier_name(tier)) {
      return tier;
    }
    // Older plugin versions stored the display path of the entry's file.
    const std::string relative = tier == "CLAUDE.local.md" ? tier : "memory/" + tier;
    if (const std::optional<Tier> from_path = tier_of(relative)) {
      const std::string name{tier_name(*from_path)};
      warn(key, id, fmt::format("tier `{}` is a file path; read as `{}`", tier, name));
      return name;
    }
    warn(key, id,
         fmt::format("tier `{}` is not working, register or archive; kept as written", tier));
    return tier;
  }

  std::string_view m_bytes;
  std::string_view m_path;
  MetadataRead m_result;
};

}  // namespace

MetadataRead parse_metadata(std::string_view bytes, std::string_view path) {
  return Reader{bytes, path}.read();
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
