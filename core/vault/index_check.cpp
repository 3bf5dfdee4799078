#include "core/vault/index_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/json/parse.hpp"
#include "core/memory/lines.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/vault/index_reader.hpp"

namespace gv {

namespace {

using OrderedJson = nlohmann::ordered_json;

constexpr std::string_view k_fix = "git vault index";

Finding stale(std::string_view path, std::string id, std::optional<int> line, std::string message) {
  Finding finding;
  finding.check = "stale-index";
  finding.severity = Severity::error;
  finding.path = std::string(path);
  finding.line = line;
  finding.id = std::move(id);
  finding.message = std::move(message);
  finding.fix = std::string(k_fix);
  return finding;
}

std::string dump(const OrderedJson& value) {
  return value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

// The fresh rendering as it would read with the committed file's `generated_at`, or nullopt
// when the committed file has none to keep (then any difference is real). A rendering is a
// two-space dump whose third line holds the date, so the date is swapped as text: the bytes that
// parsing, setting and dumping it again give, without doing that to tens of megabytes.
std::optional<std::string> fresh_with_kept_date(const std::string& fresh_json,
                                                const OrderedJson& committed) {
  const auto generated_at = committed.find("generated_at");
  if (generated_at == committed.end() || !generated_at->is_string()) {
    return std::nullopt;
  }
  // Entries' keys are indented further, so this matches the top-level key only.
  constexpr std::string_view k_key = "\n  \"generated_at\": \"";
  const std::size_t at = fresh_json.find(k_key);
  if (at == std::string::npos) {
    OrderedJson document = OrderedJson::parse(fresh_json);
    document["generated_at"] = *generated_at;
    return document.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
  }
  const std::size_t open = at + k_key.size() - 1;
  std::size_t close = open + 1;
  while (close < fresh_json.size() && fresh_json[close] != '"') {
    close += fresh_json[close] == '\\' ? 2 : 1;
  }
  const std::string date = dump(*generated_at);
  std::string out;
  out.reserve(fresh_json.size() + date.size());
  out.append(fresh_json, 0, open);
  out += date;
  out.append(fresh_json, std::min(close + 1, fresh_json.size()));
  return out;
}

// Whether the committed memory-index.json differs from a regeneration, and the committed file
// as parsed on the way (when it was parsed), for the diagnosis to reuse.
struct JsonJudgement {
  bool changes = false;
  std::optional<OrderedJson> committed;
};

// The one predicate behind both the check and the write plan, so "stale" and "would be
// written" never disagree.
JsonJudgement judge_json(const std::string& fresh_json,
                         const std::optional<std::string>& committed) {
  if (!committed) {
    return {true, std::nullopt};
  }
  if (*committed == fresh_json) {
    return {false, std::nullopt};
  }
  auto parsed = json_text::parse<OrderedJson>(*committed);
  OrderedJson* const document_ptr = std::get_if<OrderedJson>(&parsed);
  if (document_ptr == nullptr || !document_ptr->is_object()) {
    return {true, std::nullopt};
  }
  const std::optional<std::string> kept = fresh_with_kept_date(fresh_json, *document_ptr);
  return {!kept || *kept != *committed, std::move(*document_ptr)};
}

// The line of each entry's `"id": "<id>"` in the committed index, found in one pass: looking
// each id up from the start of the file made a check of an index whose 10,000 entries all
// differ take 28 s (doc/performance.md, "No quadratic growth"). An id listed twice keeps its
// first line. Inside a JSON string every `"` is escaped, so the key's pattern only matches keys.
class EntryLines {
 public:
  explicit EntryLines(std::string_view bytes) {
    constexpr std::string_view k_key = "\"id\": \"";
    int line = 1;
    std::size_t counted = 0;  // the newlines before this offset are in `line`
    for (std::size_t at = bytes.find(k_key); at != std::string_view::npos;
         at = bytes.find(k_key, at + 1)) {
      line += static_cast<int>(std::count(bytes.begin() + static_cast<std::ptrdiff_t>(counted),
                                          bytes.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
      counted = at;
      // The id's JSON string as written, quotes included, to compare with `dump(id)`.
      const std::size_t open = at + k_key.size() - 1;
      std::size_t close = open + 1;
      while (close < bytes.size() && bytes[close] != '"' && bytes[close] != '\n') {
        close += bytes[close] == '\\' ? 2 : 1;
      }
      if (close < bytes.size() && bytes[close] == '"') {
        m_lines.emplace(std::string(bytes.substr(open, close + 1 - open)), line);
      }
    }
  }
  [[nodiscard]] std::optional<int> of(const std::string& id) const {
    const auto found = m_lines.find(dump(OrderedJson(id)));
    return found == m_lines.end() ? std::nullopt : std::optional<int>(found->second);
  }

 private:
  std::unordered_map<std::string, int> m_lines;
};

// A value short enough to quote in a message; long strings and lists are named, not shown.
std::optional<std::string> short_value(const OrderedJson& value) {
  if (value.is_string() && value.get_ref<const std::string&>().size() > 40) {
    return std::nullopt;
  }
  if (value.is_structured()) {
    return std::nullopt;
  }
  return dump(value);
}

std::string describe_drift(const OrderedJson& committed, const OrderedJson& fresh) {
  std::vector<std::string> parts;
  for (const auto& [key, value] : fresh.items()) {
    const auto it = committed.find(key);
    if (it == committed.end()) {
      parts.push_back(fmt::format("{} (missing)", key));
    } else if (*it != value) {
      const auto before = short_value(*it);
      const auto after = short_value(value);
      // token_count is counted from the body (D3), whatever the frontmatter states.
      parts.push_back(!before || !after ? key
                      : key == "token_count"
                          ? fmt::format("{} (index {}, the body counts {})", key, *before, *after)
                          : fmt::format("{} (index {}, memory file {})", key, *before, *after));
    }
  }
  for (const auto& [key, value] : committed.items()) {
    if (!fresh.contains(key)) {
      parts.push_back(fmt::format("{} (not generated)", key));
    }
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// Explains why memory-index.json is stale. Only called when judge_json said so, with the file
// as it parsed it (nullopt: parsed here); always returns at least one finding.
std::vector<Finding> diagnose_json(const std::string& fresh_json, const std::string& committed,
                                   std::optional<OrderedJson> parsed) {
  const std::string_view path = k_index_json_path;
  IndexReadResult read = read_index(path, committed);
  if (!read.index) {
    for (Finding& finding : read.findings) {
      finding.severity = Severity::error;
    }
    return std::move(read.findings);
  }
  const OrderedJson old_doc = parsed ? std::move(*parsed) : OrderedJson::parse(committed);
  const OrderedJson new_doc = OrderedJson::parse(fresh_json);
  std::vector<Finding> findings;

  for (const auto& [key, value] : new_doc.items()) {
    if (key == "entries" || key == "entry_count" || key == "total_tokens") {
      continue;  // judged below, from the entries
    }
    const auto it = old_doc.find(key);
    if (it == old_doc.end()) {
      findings.push_back(stale(path, "", std::nullopt, fmt::format("no `{}` key", key)));
    } else if (key == "version" && *it != value) {
      findings.push_back(
          stale(path, "", std::nullopt,
                fmt::format("version is {}; a regeneration writes {}", dump(*it), dump(value))));
    } else if (key == "generated_at" && !it->is_string()) {
      findings.push_back(stale(path, "", std::nullopt, "generated_at is not a string"));
    }
  }
  for (const auto& [key, value] : old_doc.items()) {
    if (!new_doc.contains(key)) {
      findings.push_back(
          stale(path, "", std::nullopt, fmt::format("unexpected top-level key `{}`", key)));
    }
  }

  std::map<std::string, const OrderedJson*> fresh_entries;
  for (const OrderedJson& entry : new_doc["entries"]) {
    fresh_entries[entry["id"].get<std::string>()] = &entry;
  }
  std::map<std::string, const OrderedJson*> old_entries;
  std::vector<std::string> old_order;
  const EntryLines lines(committed);
  const auto old_list = old_doc.find("entries");
  if (old_list != old_doc.end() && old_list->is_array()) {
    for (const OrderedJson& entry : *old_list) {
      const auto id = entry.is_object() ? entry.find("id") : entry.end();
      if (!entry.is_object() || id == entry.end() || !id->is_string()) {
        findings.push_back(stale(path, "", std::nullopt, "an entry has no string id"));
        continue;
      }
      const std::string& name = id->get_ref<const std::string&>();
      old_order.push_back(name);
      if (!old_entries.emplace(name, &entry).second) {
        findings.push_back(
            stale(path, name, lines.of(name), fmt::format("duplicate entry for {}", name)));
      }
    }
  } else {
    findings.push_back(stale(path, "", std::nullopt, "no `entries` array"));
  }

  bool entries_differ = false;
  for (const auto& [id, entry] : fresh_entries) {
    const auto it = old_entries.find(id);
    if (it == old_entries.end()) {
      entries_differ = true;
      // Where a regeneration puts it: before the first entry that sorts after it, else after
      // the last.
      const auto next = old_entries.upper_bound(id);
      const std::optional<int> line = next != old_entries.end() ? lines.of(next->first)
                                      : old_entries.empty()     ? std::nullopt
                                                            : lines.of(old_entries.rbegin()->first);
      findings.push_back(stale(path, id, line, fmt::format("{} is missing from the index", id)));
    } else if (*it->second != *entry) {
      entries_differ = true;
      findings.push_back(stale(path, id, lines.of(id),
                               fmt::format("entry {} differs from its memory file: {}", id,
                                           describe_drift(*it->second, *entry))));
    }
  }
  for (const auto& [id, entry] : old_entries) {
    if (!fresh_entries.contains(id)) {
      entries_differ = true;
      findings.push_back(stale(path, id, lines.of(id),
                               fmt::format("orphaned entry {} has no readable memory file", id)));
    }
  }

  if (!entries_differ) {
    for (const std::string key : {"entry_count", "total_tokens"}) {
      const auto it = old_doc.find(key);
      const OrderedJson& want = new_doc[key];
      if (it == old_doc.end() || *it != want) {
        findings.push_back(
            stale(path, "", std::nullopt,
                  fmt::format("{} is {}; a regeneration writes {}", key,
                              it == old_doc.end() ? "missing" : dump(*it), dump(want))));
      }
    }
    if (!std::is_sorted(old_order.begin(), old_order.end())) {
      findings.push_back(stale(path, "", std::nullopt, "entries are not sorted by id"));
    }
  }
  if (findings.empty()) {
    findings.push_back(
        stale(path, "", std::nullopt, "differs from a regeneration in formatting or key order"));
  }
  return findings;
}

// A generated Markdown file is compared byte for byte; the finding points at the first line
// that differs so a hand edit is easy to find.
void check_markdown(std::string_view path, const std::string& fresh,
                    const std::optional<std::string>& committed, std::vector<Finding>& out) {
  if (!committed) {
    out.push_back(stale(path, "", std::nullopt, "missing; a regeneration creates it"));
    return;
  }
  if (*committed == fresh) {
    return;
  }
  const auto mismatch =
      std::mismatch(committed->begin(), committed->end(), fresh.begin(), fresh.end());
  const auto offset = static_cast<std::size_t>(mismatch.first - committed->begin());
  out.push_back(stale(path, "", line_of_offset(*committed, offset), "differs from a regeneration"));
}

}  // namespace

std::vector<Finding> check_index_files(const IndexFiles& fresh,
                                       const CommittedIndexFiles& committed) {
  std::vector<Finding> findings;
  if (JsonJudgement judgement = judge_json(fresh.index_json, committed.index_json);
      judgement.changes) {
    if (!committed.index_json) {
      findings.push_back(
          stale(k_index_json_path, "", std::nullopt, "missing; a regeneration creates it"));
    } else {
      std::vector<Finding> json =
          diagnose_json(fresh.index_json, *committed.index_json, std::move(judgement.committed));
      findings.insert(findings.end(), std::make_move_iterator(json.begin()),
                      std::make_move_iterator(json.end()));
    }
  }
  check_markdown(k_index_md_path, fresh.index_md, committed.index_md, findings);
  check_markdown(k_memories_readme_path, fresh.memories_readme, committed.memories_readme,
                 findings);
  return findings;
}

std::vector<FileWrite> plan_index_writes(const IndexFiles& fresh,
                                         const CommittedIndexFiles& committed) {
  std::vector<FileWrite> writes;
  if (judge_json(fresh.index_json, committed.index_json).changes) {
    writes.push_back({std::string(k_index_json_path), fresh.index_json});
  }
  if (committed.index_md != fresh.index_md) {
    writes.push_back({std::string(k_index_md_path), fresh.index_md});
  }
  if (committed.memories_readme != fresh.memories_readme) {
    writes.push_back({std::string(k_memories_readme_path), fresh.memories_readme});
  }
  return writes;
}

CommittedIndexFiles read_index_files(const Snapshot& snapshot) {
  return CommittedIndexFiles{snapshot.read(k_index_json_path), snapshot.read(k_index_md_path),
                             snapshot.read(k_memories_readme_path)};
}

}  // namespace gv
