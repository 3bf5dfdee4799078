#include "core/distill/memory_write.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "core/distill/text_edits.hpp"
#include "core/error.hpp"
#include "core/memory/body.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/memory/parse.hpp"
#include "core/secrets/detector.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/text.hpp"
#include "core/vault/id_naming.hpp"
#include "core/vault/vault.hpp"

namespace gv::distill {
namespace {

// Content that would split the memory's sections if written into its body.
void check_content(std::string_view content) {
  for (const Heading& heading : find_headings(content)) {
    if (heading.level == 2 && (heading.text == "History" || heading.text == "Connections")) {
      throw Error(
          "memory content holds a `## {}` heading, which would split the memory's "
          "sections; nothing was written",
          heading.text);
    }
  }
}

std::string block_list(const std::vector<std::string>& items) {
  if (items.empty()) {
    return " []";
  }
  std::string out;
  for (const std::string& item : items) {
    out += fmt::format("\n  - {}", yaml_plain_or_quoted(item));
  }
  return out;
}

const Memory& target_of(const Vault& vault, std::string_view id) {
  const Memory* memory = find_memory(vault, id);
  if (memory == nullptr) {
    throw Error("{}: no such memory", id);
  }
  if (!memory->active()) {
    throw Error("{}: tombstoned; it cannot be updated or extended", id);
  }
  return *memory;
}

WrittenMemory create(const Snapshot& before, const MemoryWrite& write, Date today,
                     const TermScoring& scoring) {
  const Vault vault = load_vault(before);
  // What the caller left open is taken from the memory nearest in keywords, so the new one
  // sits in its neighbours' topic and category rather than under "(no topic)".
  std::vector<std::string> terms = write.keywords;
  for (std::string& term : scoring.key_terms(write.title + "\n" + write.content)) {
    terms.push_back(std::move(term));
  }
  const Memory* nearest = nearest_memory(vault.memories, terms, scoring);
  std::string category = write.category;
  if (category.empty()) {
    category = nearest != nullptr && !nearest->category.empty() ? nearest->category : "INSIGHT";
  }
  std::string upper = category;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
  });
  const std::string topic = !write.topic.empty() ? write.topic
                            : nearest != nullptr ? nearest->topic
                                                 : usual_topic(vault.memories);
  std::vector<std::string> ids;
  ids.reserve(vault.memories.size());
  for (const Memory& memory : vault.memories) {
    ids.push_back(memory.id);
  }
  WrittenMemory written;
  written.id =
      name_memory(detect_id_naming(ids), ids, write.title, upper, today, [&](std::string_view id) {
        return find_memory(vault, id) != nullptr ||
               before.read(fmt::format("{}{}.md", vault_path::k_memories, id)).has_value();
      });
  written.path = fmt::format("{}{}.md", vault_path::k_memories, written.id);
  const std::string date = format_date(today);
  const std::string summary = first_sentence(write.content).value_or(write.title);
  written.bytes = fmt::format(
      "---\ntitle: {}\ncreated: {}\ntags:{}\ntopic: {}\nsource: {}\nmodified: {}\nkeywords:{}\n"
      "summary: {}\nretrieval_count: 0\nlast_retrieved:\n---\n\n# {}\n\n{}\n\n## Connections\n"
      "<!-- Add links to related memories using [[filename]] syntax -->\n",
      yaml_double_quoted(write.title), date, block_list({upper}), yaml_double_quoted(topic),
      yaml_double_quoted(write.source), date, block_list(write.keywords),
      yaml_double_quoted(summary), write.title, with_eol(trim_blank_lines(write.content), "\n"));
  return written;
}

WrittenMemory update(const Snapshot& before, const MemoryWrite& write, Date today) {
  const Vault vault = load_vault(before);
  const Memory& target = target_of(vault, write.target_id);
  const std::optional<std::string> bytes = before.read(target.path);
  if (!bytes) {
    throw Error("{}: cannot read", target.path);
  }
  FrontmatterEditor editor(target.path, *bytes);
  editor.set_scalar("modified", format_date(today));
  // `source` is where the memory came from: a task's folder ties it to that task's later
  // events (revise's task-number-in-source), so an update keeps it. The run that updated it is
  // in the logs.
  if (util::trim(target.source).empty()) {
    editor.set_scalar("source", yaml_double_quoted(write.source));
  }
  const std::string edited = editor.bytes();
  const FrontmatterSplit split = split_frontmatter(edited);
  const std::string_view eol = split.line_ending;
  const std::string_view body = split.body(edited);
  const BodySections sections = locate_sections(body);
  const std::string_view old_main =
      body.substr(sections.main.begin, sections.main.end - sections.main.begin);
  const std::string entry =
      fmt::format("### Previous Version ({}){}{}{}{}", format_date(target.created), eol, eol,
                  demote_headings(trim_blank_lines(old_main)), eol);
  std::vector<TextEdit> edits;
  std::string main_text = with_eol(
      fmt::format("{}{}\n", sections.title_line ? "\n" : "", trim_blank_lines(write.content)), eol);
  if (!sections.history) {
    main_text += with_eol("\n## History\n\n", eol) + entry;
  }
  if (sections.main.end < body.size()) {
    main_text += eol;
  }
  edits.push_back({sections.main.begin, sections.main.end, std::move(main_text)});
  if (sections.history) {
    // The new entry goes first, right under the heading; older entries follow unchanged.
    const std::size_t heading_end = body.find('\n', sections.history->begin);
    const std::size_t insert_at =
        heading_end == std::string_view::npos ? sections.history->end : heading_end + 1;
    // One blank line between the new entry and what follows, whether or not the old entries
    // started with one.
    const std::string_view rest = body.substr(insert_at);
    const bool blank_follows = rest.starts_with("\n") || rest.starts_with("\r\n");
    edits.push_back(
        {insert_at, insert_at, std::string(eol) + entry + (blank_follows ? "" : std::string(eol))});
  }
  WrittenMemory written;
  written.id = target.id;
  written.path = target.path;
  written.bytes = std::string(std::string_view(edited).substr(0, split.body_begin)) +
                  apply_edits(body, std::move(edits));
  return written;
}

WrittenMemory extend(const Snapshot& before, const MemoryWrite& write, Date today) {
  const Vault vault = load_vault(before);
  const Memory& target = target_of(vault, write.target_id);
  const std::optional<std::string> bytes = before.read(target.path);
  if (!bytes) {
    throw Error("{}: cannot read", target.path);
  }
  FrontmatterEditor editor(target.path, *bytes);
  editor.set_scalar("modified", format_date(today));
  const std::string edited = editor.bytes();
  const FrontmatterSplit split = split_frontmatter(edited);
  const std::string_view eol = split.line_ending;
  const std::string_view body = split.body(edited);
  const BodySections sections = locate_sections(body);
  const std::string block =
      with_eol(fmt::format("## Extension ({})\n\n**Source**: {}\n\n{}\n", format_date(today),
                           write.source, trim_blank_lines(write.content)),
               eol);
  std::string out;
  if (sections.connections) {
    const std::size_t at = sections.connections->begin;
    out = std::string(body.substr(0, at)) + block + std::string(eol) + std::string(body.substr(at));
  } else {
    out = with_eol(std::string(body), eol) + std::string(eol) + block;
  }
  WrittenMemory written;
  written.id = target.id;
  written.path = target.path;
  written.bytes = std::string(std::string_view(edited).substr(0, split.body_begin)) + out;
  return written;
}

}  // namespace

std::string usual_topic(const std::vector<Memory>& memories) {
  std::map<std::string, std::size_t> counts;
  for (const Memory& memory : memories) {
    if (memory.active() && !memory.topic.empty()) {
      ++counts[memory.topic.substr(0, memory.topic.find('/'))];
    }
  }
  std::string best;
  std::size_t best_count = 0;
  for (const auto& [topic, count] : counts) {
    if (count > best_count) {
      best = topic;
      best_count = count;
    }
  }
  return best;
}

const Memory* nearest_memory(const std::vector<Memory>& memories,
                             const std::vector<std::string>& terms, const TermScoring& scoring) {
  const Memory* best = nullptr;
  double best_overlap = 0.0;
  std::vector<const Memory*> active;
  for (const Memory& memory : memories) {
    if (memory.active()) {
      active.push_back(&memory);
    }
  }
  std::sort(active.begin(), active.end(),
            [](const Memory* a, const Memory* b) { return a->id < b->id; });
  for (const Memory* memory : active) {
    const double overlap = scoring.overlap(terms, memory->keywords);
    if (overlap > best_overlap + 1e-9) {
      best = memory;
      best_overlap = overlap;
    }
  }
  return best;
}

std::optional<std::string> first_sentence(std::string_view content, std::size_t max_bytes) {
  // The first paragraph of prose: not a heading, a list marker, a table row, a fence or code.
  std::string paragraph;
  bool in_fence = false;
  std::size_t at = 0;
  while (at <= content.size()) {
    const std::size_t end = std::min(content.find('\n', at), content.size());
    const std::string_view line = util::trim(content.substr(at, end - at));
    at = end + 1;
    if (line.starts_with("```") || line.starts_with("~~~")) {
      in_fence = !in_fence;
      if (!paragraph.empty()) {
        break;
      }
      continue;
    }
    if (in_fence) {
      continue;
    }
    if (line.empty() || line.starts_with('#') || line.starts_with('|') ||
        line.starts_with("<!--")) {
      if (!paragraph.empty()) {
        break;
      }
      continue;
    }
    std::string_view text = line;
    if (text.starts_with("- ") || text.starts_with("* ") || text.starts_with("+ ")) {
      text.remove_prefix(2);
    }
    if (!paragraph.empty()) {
      paragraph += ' ';
    }
    paragraph += text;
    if (end >= content.size()) {
      break;
    }
  }
  if (paragraph.empty()) {
    return std::nullopt;
  }
  // Up to the first full stop that ends a sentence (not one inside `e.g.` or a version).
  for (std::size_t i = 0; i < paragraph.size(); ++i) {
    const char c = paragraph[i];
    if ((c == '.' || c == '!' || c == '?') &&
        (i + 1 == paragraph.size() || paragraph[i + 1] == ' ') &&
        !(i >= 3 && paragraph.compare(i - 3, 4, "e.g.") == 0) &&
        !(i >= 3 && paragraph.compare(i - 3, 4, "i.e.") == 0) &&
        !(i >= 2 && paragraph.compare(i - 2, 3, "vs.") == 0)) {
      paragraph.resize(i + 1);
      break;
    }
  }
  if (paragraph.size() > max_bytes) {
    // A sentence too long to be a summary: cut after a clause (a comma, semicolon or colon)
    // within the bound, never inside one, and say it goes on.
    std::size_t cut = std::string::npos;
    for (const char mark : {';', ':', ','}) {
      const std::size_t at_mark = paragraph.rfind(mark, max_bytes);
      if (at_mark != std::string::npos && at_mark > max_bytes / 3 &&
          (cut == std::string::npos || at_mark > cut)) {
        cut = at_mark;
      }
    }
    if (cut == std::string::npos) {
      cut = paragraph.rfind(' ', max_bytes);
    }
    if (cut == std::string::npos || cut == 0) {
      return std::nullopt;
    }
    paragraph.resize(cut);
    paragraph += "...";
  }
  return paragraph;
}

WrittenMemory write_memory(const Snapshot& before, const MemoryWrite& requested, Date today,
                           const TermScoring& scoring) {
  // Whatever the records held, a memory written from them holds no secret (D24).
  MemoryWrite write = requested;
  write.title = secrets::withhold_secrets(write.title);
  write.content = secrets::withhold_secrets(write.content);
  for (std::string& keyword : write.keywords) {
    keyword = secrets::withhold_secrets(keyword);
  }
  check_content(write.content);
  switch (write.op) {
    case HarvestOp::update:
      return update(before, write, today);
    case HarvestOp::extend:
      return extend(before, write, today);
    case HarvestOp::create:
      break;
  }
  return create(before, write, today, scoring);
}

}  // namespace gv::distill
