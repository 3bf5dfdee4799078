#include "core/memory/parse.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <set>

#include "core/memory/body.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/frontmatter_scan.hpp"
#include "core/memory/lines.hpp"
#include "core/memory/tokens.hpp"
#include "core/secrets/detector.hpp"
#include "core/util/message.hpp"
#include "core/util/text.hpp"

namespace gv {
namespace {

#ifdef NDEBUG
constexpr bool k_cross_check_scanner = false;
#else
constexpr bool k_cross_check_scanner = true;
#endif

// A broken invariant, not bad input: the scanner must read a block exactly as yaml-cpp does.
[[noreturn]] void scanner_disagrees(std::string_view path, std::string_view what) {
  util::print_error(
      fmt::format("internal error: {}: frontmatter scanner and yaml-cpp disagree: {}", path, what));
  std::abort();
}

std::string trimmed(std::string_view s) { return std::string(util::trim(s)); }

// A scalar's value as written (doc/decisions.md D15): a quoted scalar keeps every character inside
// its quotes, so `title: "Ends in space "` keeps its space. Plain and block scalars lose the
// surrounding whitespace and the final line break that YAML's block chomping leaves.
std::string scalar_value(const FlatValue& value) {
  return value.quoted ? value.text : trimmed(value.text);
}

// Collects findings for one file and knows which line each field sits on.
class Checker {
 public:
  Checker(std::string_view path, std::string id, const FrontmatterSplit* split)
      : m_path(path), m_id(std::move(id)), m_split(split) {}

  // `fix` is the edit that repairs it, said as something to do (every finding names one).
  void add(Severity severity, std::optional<int> line, std::string message, std::string fix = {}) {
    Finding finding;
    finding.check = "schema";
    finding.severity = severity;
    finding.path = m_path;
    finding.line = line;
    finding.id = m_id;
    finding.message = std::move(message);
    finding.fix = std::move(fix);
    m_findings.push_back(std::move(finding));
  }
  void error_at(std::string_view key, std::string message, std::string fix = {}) {
    add(Severity::error, line_of(key), std::move(message), std::move(fix));
  }
  void warning_at(std::string_view key, std::string message) {
    add(Severity::warning, line_of(key), std::move(message));
  }
  [[nodiscard]] int line_of(std::string_view key) const {
    const FrontmatterKey* found = m_split != nullptr ? m_split->find(key) : nullptr;
    return found != nullptr ? found->first_line : 1;
  }
  std::vector<Finding> take() { return std::move(m_findings); }

 private:
  std::string m_path;
  std::string m_id;
  const FrontmatterSplit* m_split;
  std::vector<Finding> m_findings;
};

// The field's value when present and not null (`key:`, `key: null`, `key: ~`).
const FlatValue* field(const FlatFrontmatter& root, const char* key) {
  const FlatValue* value = find_flat_field(root, key);
  if (value == nullptr || value->kind == FlatValue::Kind::null) {
    return nullptr;
  }
  return value;
}

// A string field (scalar_value); defaults to "" when absent. A list or map is an error.
std::string string_field(const FlatFrontmatter& root, const char* key, Checker& checker) {
  const FlatValue* node = field(root, key);
  if (node == nullptr) {
    return {};
  }
  if (node->kind != FlatValue::Kind::scalar) {
    checker.error_at(key, fmt::format("{} must be a string", key),
                     fmt::format("quote the value: {}: \"...\"", key));
    return {};
  }
  return scalar_value(*node);
}

std::optional<Date> date_field(const FlatFrontmatter& root, const char* key, Checker& checker) {
  const FlatValue* node = field(root, key);
  if (node == nullptr) {
    return std::nullopt;
  }
  if (node->kind != FlatValue::Kind::scalar) {
    checker.error_at(key, fmt::format("{} must be a date (YYYY-MM-DD)", key),
                     fmt::format("write it as {}: 2026-01-31 (year-month-day)", key));
    return std::nullopt;
  }
  const std::string text = trimmed(node->text);
  auto date = parse_date(text);
  if (!date) {
    checker.error_at(key, fmt::format("{} '{}' is not a valid date (YYYY-MM-DD)", key, text),
                     fmt::format("write it as {}: 2026-01-31 (year-month-day)", key));
  }
  return date;
}

// A list of strings, flow or block. A lone string is read as a one-item list with a warning,
// because hand-written notes say `tags: PATTERN` and the intent is clear. Items are trimmed
// (keywords and tags are compared as keys, D2); blank ones are dropped.
std::vector<std::string> list_field(const FlatFrontmatter& root, const char* key,
                                    Checker& checker) {
  std::vector<std::string> items;
  const FlatValue* node = field(root, key);
  if (node == nullptr) {
    return items;
  }
  if (node->kind == FlatValue::Kind::scalar) {
    std::string value = trimmed(node->text);
    if (!value.empty()) {
      checker.warning_at(key,
                         fmt::format("{} should be a list; read '{}' as one item", key, value));
      items.push_back(std::move(value));
    }
    return items;
  }
  if (node->kind != FlatValue::Kind::sequence) {
    checker.error_at(key, fmt::format("{} must be a list of strings", key),
                     fmt::format("write it as a list: {}: [first, second]", key));
    return items;
  }
  bool reported = false;
  for (const FlatItem& item : node->items) {
    if (item.kind == FlatItem::Kind::null) {
      continue;
    }
    if (item.kind != FlatItem::Kind::scalar) {
      if (!reported) {
        checker.error_at(key, fmt::format("{} must hold only strings", key),
                         fmt::format("make each item of {} a plain word or a quoted string", key));
        reported = true;
      }
      continue;
    }
    std::string value = trimmed(item.text);
    if (!value.empty()) {
      items.push_back(std::move(value));
    }
  }
  return items;
}

std::int64_t count_field(const FlatFrontmatter& root, const char* key, Checker& checker) {
  const FlatValue* node = field(root, key);
  if (node == nullptr) {
    return 0;
  }
  const std::string text =
      node->kind == FlatValue::Kind::scalar ? trimmed(node->text) : std::string();
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    checker.error_at(key, fmt::format("{} '{}' is not a whole number", key, text),
                     fmt::format("write it as a whole number: {}: 0", key));
    return 0;
  }
  if (value < 0) {
    checker.error_at(key, fmt::format("{} must not be negative (found {})", key, value),
                     fmt::format("write it as 0 or more: {}: 0", key));
    return 0;
  }
  return value;
}

void validate_fields(const FlatFrontmatter& root, Checker& checker, Memory& memory, bool& usable) {
  const FlatValue* title = field(root, "title");
  if (title == nullptr && find_flat_field(root, "title") != nullptr) {
    // `title:` with nothing after it: the line is there, so "missing" would send the reader
    // looking for a line they can see.
    checker.error_at("title", "title is empty", "write the memory's title after title:");
    usable = false;
  } else if (title == nullptr) {
    checker.error_at("title", "missing required field title",
                     "add a line title: \"...\" to the frontmatter");
    usable = false;
  } else if (title->kind != FlatValue::Kind::scalar || trimmed(title->text).empty()) {
    checker.error_at("title", "title must be a non-empty string",
                     "write the memory's title after title:");
    usable = false;
  } else {
    memory.title = scalar_value(*title);
  }

  if (!field(root, "created")) {
    checker.error_at("created", "missing required field created",
                     field(root, "date") != nullptr
                         ? "`git vault migrate` renames the older layout's date: to created:"
                         : "add a line created: 2026-01-31 (the day it was written) to the "
                           "frontmatter");
    usable = false;
  } else if (const auto created = date_field(root, "created", checker)) {
    memory.created = *created;
  } else {
    usable = false;
  }
  memory.modified = date_field(root, "modified", checker).value_or(memory.created);

  memory.tags = list_field(root, "tags", checker);
  memory.keywords = list_field(root, "keywords", checker);
  memory.topic = string_field(root, "topic", checker);
  memory.summary = string_field(root, "summary", checker);
  memory.source = string_field(root, "source", checker);
  memory.category = string_field(root, "category", checker);
  if (memory.category.empty() && !memory.tags.empty()) {
    memory.category = memory.tags.front();
  }
  memory.retrieval_count = count_field(root, "retrieval_count", checker);
  memory.last_retrieved = date_field(root, "last_retrieved", checker);

  // A status is a keyword, not carried text: ` active ` in quotes still means active.
  const std::string status = trimmed(string_field(root, "status", checker));
  if (status == "tombstoned") {
    memory.tombstoned = true;
    memory.tombstoned_at = date_field(root, "tombstoned_at", checker);
    if (!field(root, "tombstoned_at")) {
      checker.error_at("status", "a tombstoned memory needs tombstoned_at",
                       "add a line tombstoned_at: 2026-01-31, or set status: active");
    }
    memory.tombstone_reason = string_field(root, "tombstone_reason", checker);
  } else if (!status.empty() && status != "active") {
    checker.error_at("status", fmt::format("status '{}' must be active or tombstoned", status),
                     "set status: active (or tombstoned)");
  }
}

// yaml-cpp can end a document early without an error: a line starting with `%` reads as a
// directive, a key that opens a quote it never closes swallows what follows. The fields after
// that point would vanish in silence, and an edit of one of them would land where nothing reads
// it. The line index (split.keys) sees every key line, so a key it sees that the document lacks
// is reported where the reading stopped: the first line after the last field read that is
// neither blank nor a comment.
std::optional<FrontmatterError> fields_yaml_skipped(std::string_view block,
                                                    const FrontmatterSplit& split,
                                                    const FlatFrontmatter& read) {
  std::set<std::string_view> names;
  for (const FlatField& field : read) {
    names.insert(field.key);
  }
  int last_read_line = split.first_block_line - 1;
  for (const FrontmatterKey& key : split.keys) {
    if (names.count(key.key) != 0) {
      last_read_line = std::max(last_read_line, key.first_line);
      continue;
    }
    // The stray line: unindented, not blank, not a comment, not a list item.
    int stop = key.first_line;
    const std::vector<TextLine> lines = split_lines(block);
    for (int line = last_read_line + 1; line < key.first_line; ++line) {
      const std::size_t index = static_cast<std::size_t>(line - split.first_block_line);
      if (index >= lines.size()) {
        break;
      }
      const std::string_view text = line_text(block, lines[index]);
      if (!text.empty() && !util::is_space(text[0]) && text[0] != '#' && text[0] != '-') {
        stop = line;
        break;
      }
    }
    return FrontmatterError{
        stop,
        fmt::format("YAML stops reading the frontmatter here, so field {} (line {}) and the ones "
                    "after it are never read",
                    key.key, key.first_line),
        stop == key.first_line
            ? fmt::format("rewrite line {} as key: value", stop)
            : fmt::format("remove or fix line {} (a line may not start with %, and a quote must "
                          "close on its line)",
                          stop)};
  }
  return std::nullopt;
}

// The line of the first conflict marker a merge left (`<<<<<<<` at the start of a line, then a
// space or the line's end), if any. Only the opening marker is looked for: it is never
// Markdown, where `=======` underlines a heading and `>` starts a quote.
std::optional<int> conflict_marker_line(std::string_view bytes) {
  constexpr std::string_view k_marker = "<<<<<<<";
  for (std::size_t at = bytes.find(k_marker); at != std::string_view::npos;
       at = bytes.find(k_marker, at + 1)) {
    const std::size_t after = at + k_marker.size();
    if ((at == 0 || bytes[at - 1] == '\n') && (after == bytes.size() || bytes[after] == ' ' ||
                                               bytes[after] == '\n' || bytes[after] == '\r')) {
      return line_of_offset(bytes, at);
    }
  }
  return std::nullopt;
}

}  // namespace

std::string memory_id_from_path(std::string_view path) {
  const auto slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (name.size() >= 3 && name.substr(name.size() - 3) == ".md") {
    name.remove_suffix(3);
  }
  return std::string(name);
}

namespace {

ParsedMemory parse_fields(std::string_view path, std::string_view bytes,
                          std::string_view blob_oid) {
  ParsedMemory result;
  std::string id = memory_id_from_path(path);

  if (bytes.size() > k_max_memory_file_bytes) {
    Checker checker(path, id, nullptr);
    // Line 1: editors jump to the file, which is the whole problem here.
    checker.add(Severity::error, 1,
                fmt::format("file is {} bytes, larger than the {} MiB a memory may have",
                            bytes.size(), k_max_memory_file_bytes / (1024 * 1024)));
    result.findings = checker.take();
    return result;
  }

  const FrontmatterSplit split = split_frontmatter(bytes);
  Checker checker(path, id, &split);
  if (const std::optional<int> line = conflict_marker_line(bytes)) {
    checker.add(Severity::error, *line,
                "unreadable: a merge conflict is not resolved: this line holds git's <<<<<<< "
                "marker",
                "keep the text you want between the <<<<<<<, ======= and >>>>>>> lines, delete "
                "those three lines, then git add the file");
    result.findings = checker.take();
    return result;
  }
  if (split.status == FrontmatterStatus::missing) {
    checker.add(Severity::error, 1,
                "unreadable: no frontmatter: the file must start with a --- line",
                "`git vault migrate` converts the older layouts (see `git vault migrate "
                "--dry-run`); or start the file with a frontmatter block: ---, title: \"...\", "
                "created: 2026-01-31, ---");
    result.findings = checker.take();
    return result;
  }
  if (split.status == FrontmatterStatus::unterminated) {
    checker.add(Severity::error, 1, "frontmatter is not closed by a --- line",
                "add a --- line after the last frontmatter field");
    result.findings = checker.take();
    return result;
  }

  const std::string_view block = split.block(bytes);
  if (const auto bad = find_invalid_utf8(block)) {
    checker.add(Severity::error, split.first_block_line - 1 + line_of_offset(block, *bad),
                "frontmatter is not valid utf-8");
    result.findings = checker.take();
    return result;
  }

  if (auto unclosed = unclosed_quote_error(block, split.first_block_line)) {
    checker.add(Severity::error, unclosed->line, std::move(unclosed->message));
    result.findings = checker.take();
    result.findings.back().fix = std::move(unclosed->fix);
    return result;
  }

  // The fast scanner reads the flat shapes vaults are written in; yaml-cpp reads the rest.
  // Debug builds run both on every flat block and stop on any difference, so every test that
  // writes a memory also checks the scanner.
  std::optional<FlatFrontmatter> root = scan_flat_frontmatter(block);
  std::string unreadable;  // yaml-cpp failed while reading a loaded document
  if (!root || k_cross_check_scanner) {
    auto loaded = load_frontmatter(bytes, split);
    if (auto* error = std::get_if<FrontmatterError>(&loaded)) {
      if (root) {
        scanner_disagrees(path, error->message);
      }
      checker.add(Severity::error, error->line, std::move(error->message));
      result.findings = checker.take();
      result.findings.back().fix = std::move(error->fix);
      return result;
    }
    FlatFrontmatter flat;
    try {
      flat = flatten_frontmatter(std::get<YAML::Node>(loaded), block);
    } catch (const YAML::Exception& e) {
      // Odd node shapes can still make yaml-cpp throw on access.
      unreadable = e.msg;
    }
    if (root && *root != flat) {
      scanner_disagrees(path, "the fields differ");
    }
    if (unreadable.empty()) {
      if (auto skipped = fields_yaml_skipped(block, split, flat)) {
        checker.add(Severity::error, skipped->line, std::move(skipped->message),
                    std::move(skipped->fix));
        result.findings = checker.take();
        return result;
      }
    }
    root = std::move(flat);
  }

  std::set<std::string_view> seen;
  for (const FrontmatterKey& key : split.keys) {
    if (!seen.insert(key.key).second) {
      checker.add(Severity::error, key.first_line, fmt::format("field {} appears twice", key.key),
                  fmt::format("delete one of the two {} lines", key.key));
    }
  }

  Memory memory;
  memory.id = std::move(id);
  memory.path = std::string(path);
  memory.blob_oid = std::string(blob_oid);
  bool usable = true;
  if (unreadable.empty()) {
    validate_fields(*root, checker, memory, usable);
  } else {
    checker.add(Severity::error, split.first_block_line,
                "frontmatter could not be read: " + unreadable);
    usable = false;
  }

  if (usable) {
    const std::string_view body = split.body(bytes);
    memory.token_count = token_count(body);
    // Lines are counted once, forward, from the file's start to each link in turn.
    const std::size_t body_offset = static_cast<std::size_t>(body.data() - bytes.data());
    int line = 1;
    std::size_t counted = 0;
    for (WikiLink& link : wiki_link_targets(body)) {
      const std::size_t at = body_offset + link.offset;
      line += static_cast<int>(std::count(bytes.begin() + static_cast<std::ptrdiff_t>(counted),
                                          bytes.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
      counted = at;
      memory.links.push_back(std::move(link.target));
      memory.link_lines.push_back(line);
    }
    result.memory = std::move(memory);
  }
  result.findings = checker.take();
  return result;
}

}  // namespace

ParsedMemory parse_memory(std::string_view path, std::string_view bytes,
                          std::string_view blob_oid) {
  ParsedMemory result = parse_fields(path, bytes, blob_oid);
  // Read once here with the rest, so a cached parse answers the gate's `secret` check too.
  if (bytes.size() <= k_max_memory_file_bytes) {
    result.secrets = secrets::scan_secrets(bytes);
  }
  return result;
}

}  // namespace gv
