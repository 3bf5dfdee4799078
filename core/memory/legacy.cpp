#include "core/memory/legacy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "core/dates.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/memory/lines.hpp"
#include "core/memory/parse.hpp"
#include "core/util/text.hpp"

namespace gv::legacy {
namespace {

// The first error parse_memory reports for `bytes`, as `path:line: message` and its fix; an
// empty problem when the file parses cleanly.
struct Problem {
  std::string message;
  std::string fix;
};
Problem first_error(std::string_view path, std::string_view bytes) {
  const ParsedMemory parsed = parse_memory(path, bytes, "");
  for (const Finding& finding : parsed.findings) {
    if (finding.severity == Severity::error) {
      return {fmt::format("{}:{}: {}", finding.path, finding.line.value_or(1), finding.message),
              finding.fix};
    }
  }
  if (parsed.memory) {
    return {};
  }
  return {fmt::format("{}:1: not a readable memory", path),
          "give the file a frontmatter block with title and created"};
}

Conversion unreadable(Problem problem) {
  Conversion conversion;
  conversion.layout = Layout::unreadable;
  conversion.problem = std::move(problem.message);
  conversion.fix = std::move(problem.fix);
  return conversion;
}

// `# Title` (ATX level 1) -> `Title`; the early layout's `# Memory: Title` loses its prefix.
std::optional<std::string> heading_title(std::string_view line) {
  if (line.size() < 2 || line[0] != '#' || (line[1] != ' ' && line[1] != '\t')) {
    return std::nullopt;
  }
  std::string_view title = util::trim(line.substr(2));
  while (!title.empty() && title.back() == '#') {  // closing hashes: `# Title #`
    title.remove_suffix(1);
  }
  title = util::trim(title);
  if (util::to_lower_ascii(title.substr(0, 7)) == "memory:") {
    title = util::trim(title.substr(7));
  }
  if (title.empty()) {
    return std::nullopt;
  }
  return std::string(title);
}

// `MEM-clean-break-renaming` -> `Clean break renaming`, for a file with no title anywhere.
std::string title_from_id(std::string_view id) {
  std::string_view rest = id.substr(0, 4) == "MEM-" ? id.substr(4) : id;
  std::string out;
  for (const char c : rest) {
    out += (c == '-' || c == '_') ? ' ' : c;
  }
  out = std::string(util::trim(out));
  if (out.empty()) {
    return std::string(id);
  }
  if (out[0] >= 'a' && out[0] <= 'z') {
    out[0] = static_cast<char>(out[0] - 'a' + 'A');
  }
  return out;
}

// One `**Key**: value` line (also `**Key:** value` and a list item `- **Key**: value`).
struct BoldField {
  std::string label;  // as written: `Category`
  std::string value;  // trimmed
};

std::optional<BoldField> bold_field(std::string_view line) {
  std::string_view rest = util::trim(line);
  if (rest.size() > 2 && (rest[0] == '-' || rest[0] == '*') && rest[1] == ' ') {
    rest = util::trim_left(rest.substr(2));
  }
  if (rest.substr(0, 2) != "**") {
    return std::nullopt;
  }
  rest.remove_prefix(2);
  const std::size_t close = rest.find("**");
  if (close == std::string_view::npos || close == 0) {
    return std::nullopt;
  }
  std::string_view label = rest.substr(0, close);
  std::string_view after = rest.substr(close + 2);
  if (!label.empty() && label.back() == ':') {  // `**Key:** value`
    label.remove_suffix(1);
  } else if (!after.empty() && after[0] == ':') {  // `**Key**: value`
    after.remove_prefix(1);
  } else {
    return std::nullopt;
  }
  label = util::trim(label);
  if (label.empty() || label.find('*') != std::string_view::npos) {
    return std::nullopt;
  }
  return BoldField{std::string(label), std::string(util::trim(after))};
}

// `Last Updated` -> `last_updated`: the frontmatter key a label becomes.
std::string snake_key(std::string_view label) {
  std::string out;
  for (const char c : util::to_lower_ascii(label)) {
    const bool word =
        (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || static_cast<unsigned char>(c) >= 0x80;
    if (word) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') {
    out.pop_back();
  }
  return out;
}

// `[PATTERN]`, `PATTERN, CONFIG`, `[a] [b]` -> the items, brackets, backticks and quotes gone.
std::vector<std::string> list_items(std::string_view value) {
  std::vector<std::string> items;
  std::string current;
  auto flush = [&] {
    std::string_view item = util::trim(current);
    while (item.size() >= 2 && ((item.front() == '`' && item.back() == '`') ||
                                (item.front() == '"' && item.back() == '"') ||
                                (item.front() == '\'' && item.back() == '\''))) {
      item = util::trim(item.substr(1, item.size() - 2));
    }
    if (!item.empty() && std::find(items.begin(), items.end(), std::string(item)) == items.end()) {
      items.emplace_back(item);
    }
    current.clear();
  };
  for (const char c : value) {
    if (c == ',' || c == '[' || c == ']') {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return items;
}

std::string block_list(const std::vector<std::string>& items) {
  if (items.empty()) {
    return " []";
  }
  std::string out;
  for (const std::string& item : items) {
    out += "\n  - " + yaml_plain_or_quoted(item);
  }
  return out;
}

// `**A**`, `**A** and **B**`, `**A**, **B** and **C**`.
std::string label_list(const std::vector<std::string>& labels) {
  std::string out;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == labels.size() ? " and " : ", ") + ("**" + labels[i] + "**");
  }
  return out;
}

// A date written in a legacy field, as `YYYY-MM-DD`; nullopt when it is not one.
std::optional<std::string> as_date(std::string_view value) {
  if (const std::optional<Date> date = parse_date(util::trim(value))) {
    return format_date(*date);
  }
  return std::nullopt;
}

// --- Files with no frontmatter ---------------------------------------------------------------

Conversion convert_bare(std::string_view path, std::string_view bytes,
                        const std::function<std::string()>& fallback_created) {
  const std::vector<TextLine> lines = split_lines(bytes);
  const std::string eol =
      !lines.empty() && lines[0].end < lines[0].next && bytes.substr(lines[0].end, 2) == "\r\n"
          ? "\r\n"
          : "\n";
  std::size_t at = 0;
  auto skip_blank = [&] {
    while (at < lines.size() && util::trim(line_text(bytes, lines[at])).empty()) {
      ++at;
    }
  };
  skip_blank();
  std::optional<std::string> heading;
  if (at < lines.size()) {
    heading = heading_title(line_text(bytes, lines[at]));
    if (heading) {
      ++at;
    }
  }
  // The metadata lines right under the heading (blank lines between them allowed).
  std::vector<BoldField> fields;
  std::size_t body_from = at;
  while (true) {
    skip_blank();
    if (at >= lines.size()) {
      break;
    }
    std::optional<BoldField> field = bold_field(line_text(bytes, lines[at]));
    if (!field) {
      break;
    }
    fields.push_back(std::move(*field));
    ++at;
    body_from = at;
  }
  if (fields.empty()) {
    body_from = heading ? at : 0;
  }

  std::string title = heading.value_or("");
  std::optional<std::string> created;
  std::optional<std::string> modified;
  std::vector<std::string> categories;
  std::vector<std::string> tags;
  std::vector<std::string> keywords;
  std::string topic;
  std::string summary;
  std::string source;
  std::vector<std::pair<std::string, std::string>> extra;  // other labels, in file order
  std::vector<std::string> used;                           // labels read, in file order
  std::vector<std::string> changes;
  for (const BoldField& field : fields) {
    const std::string key = snake_key(field.label);
    used.push_back(field.label);
    if (key == "category" || key == "categories" || key == "type") {
      for (std::string& item : list_items(field.value)) {
        categories.push_back(std::move(item));
      }
    } else if (key == "tags") {
      for (std::string& item : list_items(field.value)) {
        tags.push_back(std::move(item));
      }
    } else if (key == "keywords") {
      keywords = list_items(field.value);
    } else if ((key == "date" || key == "created" || key == "created_at" ||
                key == "date_created") &&
               !created && as_date(field.value)) {
      created = as_date(field.value);
    } else if ((key == "modified" || key == "updated" || key == "last_updated" ||
                key == "last_modified") &&
               !modified && as_date(field.value)) {
      modified = as_date(field.value);
    } else if (key == "title" && title.empty()) {
      title = field.value;
    } else if (key == "topic" && topic.empty()) {
      topic = field.value;
    } else if (key == "summary" && summary.empty()) {
      summary = field.value;
    } else if (key == "source" && source.empty()) {
      source = field.value;
    } else if (!key.empty() && std::none_of(extra.begin(), extra.end(),
                                            [&](const auto& kept) { return kept.first == key; })) {
      extra.emplace_back(key, field.value);
    }
  }
  // The category is the first tag (doc/vault-format.md, "Memory files").
  for (std::string& tag : tags) {
    if (std::find(categories.begin(), categories.end(), tag) == categories.end()) {
      categories.push_back(std::move(tag));
    }
  }
  tags = std::move(categories);

  Conversion conversion;
  conversion.layout = Layout::bold_fields;
  changes.push_back(fields.empty() ? std::string("frontmatter added (the file had none)")
                                   : "frontmatter from the " + label_list(used) + " line" +
                                         (used.size() == 1 ? "" : "s"));
  const std::string id = memory_id_from_path(path);
  if (title.empty()) {
    title = title_from_id(id);
    changes.push_back(fmt::format("title \"{}\" from the file name", title));
  } else if (heading && *heading == title) {
    changes.push_back("title from the heading");
  }
  if (!created) {
    created = fallback_created();
    conversion.created_from_fallback = true;
    changes.push_back(fmt::format("created {} (the file names no date)", *created));
  }

  // Written with `\n`, then given the file's own line ending.
  std::string front = "---\n";
  front += "title: " + yaml_double_quoted(title) + "\n";
  front += "created: " + *created + "\n";
  front += "tags:" + block_list(tags) + "\n";
  front += "topic: " + yaml_double_quoted(topic) + "\n";
  front += "source: " + yaml_double_quoted(source) + "\n";
  if (modified) {
    front += "modified: " + *modified + "\n";
  }
  front += "keywords:" + block_list(keywords) + "\n";
  front += "summary: " + yaml_double_quoted(summary) + "\n";
  for (const auto& [key, value] : extra) {
    front += key + ": " + yaml_double_quoted(value) + "\n";
  }
  front += "---\n\n";
  if (eol != "\n") {
    std::string converted;
    for (const char c : front) {
      converted += c == '\n' ? eol : std::string(1, c);
    }
    front = std::move(converted);
  }

  // The body: the title heading, then everything after the metadata lines, byte for byte.
  std::string body = "# " + title + eol;
  const std::size_t rest_begin = body_from < lines.size() ? lines[body_from].begin : bytes.size();
  std::string_view rest = bytes.substr(rest_begin);
  if (!heading && fields.empty()) {
    rest = bytes;  // nothing was read out of the file: all of it stays
  }
  const std::string_view trimmed_rest = util::trim_left(rest);
  if (!trimmed_rest.empty()) {
    body += eol + std::string(rest.substr(rest.size() - trimmed_rest.size()));
  }
  conversion.bytes = front + body;
  conversion.changes = std::move(changes);
  return conversion;
}

// --- Files with the early skeleton's frontmatter ---------------------------------------------

std::optional<std::string> scalar(const YAML::Node& map, const char* key) {
  const YAML::Node node = map[key];
  if (!node || !node.IsScalar()) {
    return std::nullopt;
  }
  return node.Scalar();
}

Conversion convert_fields(std::string_view path, std::string_view bytes,
                          const FrontmatterSplit& split,
                          const std::function<std::string()>& fallback_created) {
  Conversion conversion;
  // The common case, decided from the key lines alone: nothing of the older layout, so the file
  // is current or broken in some other way (no YAML load for the 10,000 memories that are fine).
  if (split.find("title") != nullptr && split.find("created") != nullptr &&
      !(split.find("last_updated") != nullptr && split.find("modified") == nullptr)) {
    Problem problem = first_error(path, bytes);
    if (!problem.message.empty()) {
      return unreadable(std::move(problem));
    }
    return conversion;
  }
  const auto loaded = load_frontmatter(bytes, split);
  if (const auto* error = std::get_if<FrontmatterError>(&loaded)) {
    return unreadable({fmt::format("{}:{}: {}", path, error->line, error->message),
                       error->fix.empty() ? "correct the YAML on that line" : error->fix});
  }
  const YAML::Node& root = std::get<YAML::Node>(loaded);
  FrontmatterEditor editor(path, bytes);
  std::vector<std::string> changes;

  const bool has_created = static_cast<bool>(root["created"]);
  if (!has_created) {
    if (const std::optional<std::string> date = scalar(root, "date"); date && as_date(*date)) {
      editor.insert_fields({{"created", *as_date(*date)}}, "date", "");
      editor.remove("date");
      changes.emplace_back("date -> created");
    }
  }
  if (!root["modified"]) {
    if (const std::optional<std::string> updated = scalar(root, "last_updated");
        updated && as_date(*updated)) {
      editor.insert_fields({{"modified", *as_date(*updated)}}, "last_updated", "");
      editor.remove("last_updated");
      changes.emplace_back("last_updated -> modified");
    }
  }
  const std::optional<std::string> title = scalar(root, "title");
  const std::string first_key = split.keys.empty() ? std::string{} : split.keys.front().key;
  if (!title || util::trim(*title).empty()) {
    std::optional<std::string> found;
    for (const TextLine& line : split_lines(split.body(bytes))) {
      if ((found = heading_title(line_text(split.body(bytes), line)))) {
        break;
      }
    }
    const std::string value = found.value_or(title_from_id(memory_id_from_path(path)));
    if (title) {
      editor.set_scalar("title", yaml_double_quoted(value));
    } else {
      editor.insert_fields({{"title", yaml_double_quoted(value)}}, "", first_key);
    }
    changes.push_back(found ? std::string("title from the heading")
                            : fmt::format("title \"{}\" from the file name", value));
  }
  if (!editor.has("created")) {
    const std::string date = fallback_created();
    editor.insert_fields({{"created", date}}, "title", "");
    conversion.created_from_fallback = true;
    changes.push_back(fmt::format("created {} (the file names no date)", date));
  }
  if (changes.empty()) {
    Problem problem = first_error(path, bytes);
    if (!problem.message.empty()) {
      return unreadable(std::move(problem));
    }
    conversion.layout = Layout::current;
    return conversion;
  }
  conversion.layout = Layout::old_fields;
  conversion.bytes = editor.bytes();
  conversion.changes = std::move(changes);
  return conversion;
}

}  // namespace

Conversion convert(std::string_view path, std::string_view bytes,
                   const std::function<std::string()>& fallback_created) {
  // Asked at most once, whichever path needs it.
  std::optional<std::string> fallback;
  const std::function<std::string()> once = [&] {
    if (!fallback) {
      fallback = fallback_created();
    }
    return *fallback;
  };
  if (bytes.size() > k_max_memory_file_bytes || find_invalid_utf8(bytes)) {
    Problem problem = first_error(path, bytes);
    if (problem.message.empty()) {
      problem = {fmt::format("{}:1: the file is not valid UTF-8", path), "save the file as UTF-8"};
    }
    return unreadable(std::move(problem));
  }
  const FrontmatterSplit split = split_frontmatter(bytes);
  if (split.status == FrontmatterStatus::unterminated) {
    return unreadable(first_error(path, bytes));
  }
  Conversion conversion = split.status == FrontmatterStatus::missing
                              ? convert_bare(path, bytes, once)
                              : convert_fields(path, bytes, split, once);
  if (conversion.layout == Layout::bold_fields || conversion.layout == Layout::old_fields) {
    // Never hand back a file that is still broken: say what remains instead.
    if (Problem problem = first_error(path, conversion.bytes); !problem.message.empty()) {
      return unreadable(std::move(problem));
    }
  }
  return conversion;
}

}  // namespace gv::legacy
