#include "core/review/render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "core/gate/print.hpp"
#include "core/util/text.hpp"

namespace gv::review {
namespace {

constexpr std::size_t k_cell_chars = 80;

// Text safe inside a Markdown table cell: one line, pipes escaped, cut after `limit` characters.
std::string cell(std::string_view text, std::size_t limit = k_cell_chars) {
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // Count UTF-8 lead bytes only, so a cut never splits a character.
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      if (chars == limit) {
        out += "…";
        break;
      }
      ++chars;
    }
    if (c == '\n' || c == '\r' || c == '\t') {
      out += ' ';
    } else if (c == '|') {
      out += "\\|";
    } else {
      out += c;
    }
  }
  return out;
}

std::string code(std::string_view text) { return util::code_span(text); }

std::string short_id(std::string_view commit) { return std::string(commit.substr(0, 12)); }

std::string signed_delta(std::int64_t delta) {
  return delta > 0 ? fmt::format("+{}", delta) : fmt::format("{}", delta);
}

// A field's value in a changed memory's row: quoted, and cut short enough that several fit.
constexpr std::size_t k_value_chars = 40;
std::string quoted_value(const std::string& value) {
  return "\"" + cell(value, k_value_chars) + "\"";
}

// `summary`: "old" → "new", `keywords` +venv −pip, `topic` added "x", `source` removed.
std::string field_change_text(const FieldChange& change) {
  const std::string name = code(change.field);
  if (change.is_list()) {
    std::string items;
    for (const std::string& item : change.added) {
      items += " +" + cell(item, k_value_chars);
    }
    for (const std::string& item : change.removed) {
      items += " −" + cell(item, k_value_chars);
    }
    return name + items;
  }
  if (!change.before) {
    return fmt::format("{} added: {}", name, quoted_value(change.after.value_or("")));
  }
  if (!change.after) {
    return fmt::format("{} removed (was {})", name, quoted_value(*change.before));
  }
  return fmt::format("{}: {} → {}", name, quoted_value(*change.before),
                     quoted_value(*change.after));
}

// What a body edit did, in words that say something when the token count stayed the same.
std::string body_change_text(const ChangedMemory& x) {
  if (!x.body_changed) {
    return "unchanged";
  }
  const std::string lines =
      x.body_lines_added + x.body_lines_removed == 0
          ? std::string("lines reflowed")
          : fmt::format("+{} −{} {}", x.body_lines_added, x.body_lines_removed,
                        x.body_lines_added + x.body_lines_removed == 1 ? "line" : "lines");
  if (x.tokens_after == x.tokens_before) {
    return fmt::format("{}, {} tokens as before", lines, x.tokens_after);
  }
  return fmt::format("{}, {} tokens ({} → {})", lines,
                     signed_delta(x.tokens_after - x.tokens_before), x.tokens_before,
                     x.tokens_after);
}

std::string date_text(const std::optional<Date>& date) {
  return date ? format_date(*date) : std::string("never");
}

// "a 3, b 2" from counts, largest first, then by name.
std::string breakdown(const std::map<std::string, std::size_t>& counts) {
  std::vector<std::pair<std::string, std::size_t>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (const auto& [name, count] : rows) {
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", name.empty() ? "(none)" : name, count);
  }
  return out;
}

// A section with a table of `items`, cut at max_rows. `group` names the breakdown of the whole
// list shown under a cut table (empty: no breakdown).
template <class T>
void table(std::string& out, std::string_view heading, const std::vector<T>& items,
           std::string_view header, const std::function<std::string(const T&)>& row,
           const RenderOptions& options, std::string_view group_name = {},
           const std::function<std::vector<std::string>(const T&)>& group = {}) {
  if (items.empty()) {
    return;
  }
  out += fmt::format("\n### {} ({})\n\n{}\n", heading, items.size(), header);
  std::size_t columns = 0;
  for (const char c : header) {
    columns += c == '|' ? 1 : 0;
  }
  out += "|";
  for (std::size_t i = 1; i < columns; ++i) {
    out += "---|";
  }
  out += "\n";
  const std::size_t shown = std::min(items.size(), options.max_rows);
  for (std::size_t i = 0; i < shown; ++i) {
    out += row(items[i]);
    out += "\n";
  }
  if (shown < items.size()) {
    out += fmt::format("\n…and {} more", items.size() - shown);
    if (group) {
      std::map<std::string, std::size_t> counts;
      for (const T& item : items) {
        for (const std::string& key : group(item)) {
          ++counts[key];
        }
      }
      out += fmt::format(" ({}, all {}: {})", group_name, items.size(), breakdown(counts));
    }
    out += ".\n";
  }
}

void health_section(std::string& out, const Review& review) {
  const HealthSide& a = review.before;
  const HealthSide& b = review.after;
  out += "\n### Health\n\n| | base | head |\n|---|---:|---:|\n";
  out += fmt::format("| health score | {} ({}) | {} ({}) |\n", a.health_score, a.status,
                     b.health_score, b.status);
  const auto row = [&](std::string_view name, auto x, auto y) {
    out += fmt::format("| {} | {} | {} |\n", name, x, y);
  };
  row("active memories", a.active, b.active);
  row("tombstoned memories", a.tombstoned, b.tombstoned);
  row("tokens (active)", a.tokens, b.tokens);
  row("purge candidates", a.purge_candidates, b.purge_candidates);
  row("merge candidates", a.merge_candidates, b.merge_candidates);
  row("compress candidates", a.compress_candidates, b.compress_candidates);
  row("review candidates", a.review_candidates, b.review_candidates);
}

void memory_sections(std::string& out, const MemoryDiff& m, const RenderOptions& options) {
  table<AddedMemory>(
      out, "Memories added", m.added, "| memory | title | category | topic | tokens |",
      [](const AddedMemory& x) {
        return fmt::format("| {}{} | {} | {} | {} | {} |", code(x.id),
                           x.tombstoned ? " (tombstoned)" : "", cell(x.title),
                           x.category.empty() ? "—" : cell(x.category),
                           x.topic.empty() ? "—" : cell(x.topic), x.token_count);
      },
      options, "by category",
      [](const AddedMemory& x) { return std::vector<std::string>{x.category}; });
  table<ChangedMemory>(
      out, "Memories changed", m.changed, "| memory | title | fields | body |",
      [](const ChangedMemory& x) {
        std::string fields;
        for (const FieldChange& change : x.changes) {
          fields += (fields.empty() ? "" : "; ") + field_change_text(change);
        }
        return fmt::format("| {} | {} | {} | {} |", code(x.id), cell(x.title),
                           fields.empty() ? "—" : fields, body_change_text(x));
      },
      options, "by field",
      [](const ChangedMemory& x) {
        std::vector<std::string> keys = x.fields;
        if (x.body_changed) {
          keys.emplace_back("body");
        }
        return keys;
      });
  table<TombstonedMemory>(
      out, "Memories tombstoned", m.tombstoned, "| memory | title | reason |",
      [](const TombstonedMemory& x) {
        return fmt::format("| {} | {} | {} |", code(x.id), cell(x.title),
                           x.reason.empty() ? "—" : cell(x.reason));
      },
      options, "by reason",
      [](const TombstonedMemory& x) { return std::vector<std::string>{x.reason}; });
  table<MergedPair>(
      out, "Memories merged", m.merged, "| primary | ← secondary |",
      [](const MergedPair& x) {
        return fmt::format("| {} | ← {} |", code(x.primary), code(x.secondary));
      },
      options);
  table<CompressedMemory>(
      out, "Memories compressed", m.compressed, "| memory | tokens |",
      [](const CompressedMemory& x) {
        return fmt::format("| {} | {} → {} |", code(x.id), x.tokens_before, x.tokens_after);
      },
      options);
  table<DeletedMemory>(
      out, "Memories deleted", m.deleted, "| memory | title | how |",
      [](const DeletedMemory& x) {
        return fmt::format("| {} | {} | {} |", code(x.id), cell(x.title),
                           x.was_tombstoned ? "gc (was tombstoned)" : "**deleted while active**");
      },
      options, "by kind",
      [](const DeletedMemory& x) {
        return std::vector<std::string>{x.was_tombstoned ? "gc" : "active"};
      });
  table<RenamedMemory>(
      out, "Memories renamed (same file, new id)", m.renamed, "| memory | was | title |",
      [](const RenamedMemory& x) {
        return fmt::format("| {} | {} | {} |", code(x.to), code(x.from), cell(x.title));
      },
      options);
  table<std::string>(
      out, "Memories restored (tombstone removed)", m.restored, "| memory |",
      [](const std::string& id) { return fmt::format("| {} |", code(id)); }, options);
  table<RetrievalChange>(
      out, "Retrieval counters changed", m.retrieval, "| memory | retrievals | last retrieved |",
      [](const RetrievalChange& x) {
        return fmt::format("| {} | {} → {} | {} → {} |", code(x.id), x.count_before, x.count_after,
                           date_text(x.last_before), date_text(x.last_after));
      },
      options);
  table<std::string>(
      out, "Memory files that do not parse at HEAD", m.unreadable, "| memory |",
      [](const std::string& id) { return fmt::format("| {} |", code(id)); }, options);
}

void working_sections(std::string& out, const WorkingDiff& w, const RenderOptions& options) {
  const auto entry_row = [](const EntryAt& x) {
    return fmt::format("| {} | {}:{} | {} |", code(x.id), x.path, x.line, cell(x.text));
  };
  table<EntryAt>(out, "Working memory: entries added", w.added, "| id | where | text |", entry_row,
                 options, "by tier",
                 [](const EntryAt& x) { return std::vector<std::string>{x.tier}; });
  table<EntryAt>(out, "Working memory: entries removed", w.removed, "| id | where (base) | text |",
                 entry_row, options, "by tier",
                 [](const EntryAt& x) { return std::vector<std::string>{x.tier}; });
  table<EditedEntry>(
      out, "Working memory: entries edited", w.edited, "| id | where | before | after |",
      [](const EditedEntry& x) {
        return fmt::format("| {} | {}:{} | {} | {} |", code(x.id), x.path, x.line, cell(x.before),
                           cell(x.after));
      },
      options);
  table<MovedEntry>(
      out, "Working memory: entries moved", w.moved, "| id | from | to | text |",
      [](const MovedEntry& x) {
        return fmt::format("| {} | {} ({}) | {} ({}) | {}{} |", code(x.from.id), x.from.tier,
                           x.from.path, x.to.tier, x.to.path, cell(x.to.text),
                           x.edited ? " (edited)" : "");
      },
      options, "by move",
      [](const MovedEntry& x) {
        return std::vector<std::string>{x.from.tier + " → " + x.to.tier};
      });
}

void maintenance_section(std::string& out, const std::vector<MaintenanceCommit>& commits,
                         const RenderOptions& options) {
  table<MaintenanceCommit>(
      out, "Maintenance commits", commits, "| commit | action | subject | log entry |",
      [](const MaintenanceCommit& x) {
        std::string log = "—";
        if (x.log) {
          log = code(x.log_id);
          if (x.log->health_before && x.log->health_after) {
            log += fmt::format(", health {} → {}", *x.log->health_before, *x.log->health_after);
          }
          if (!x.log->notes.empty()) {
            log += ": " + cell(x.log->notes);
          }
        } else if (!x.log_id.empty()) {
          log = code(x.log_id) + " (not in the distill log at HEAD)";
        }
        return fmt::format("| {} | {} | {} | {} |", code(short_id(x.commit)), cell(x.action),
                           cell(x.summary), log);
      },
      options, "by action",
      [](const MaintenanceCommit& x) { return std::vector<std::string>{x.action}; });
}

void gate_section(std::string& out, const std::vector<Finding>& all,
                  const std::set<std::string>& changed_paths, const RenderOptions& options) {
  out += "\n### Gate at HEAD\n\n";
  if (all.empty()) {
    out += "No findings: `git vault check` passes.\n";
    return;
  }
  std::size_t errors = 0;
  for (const Finding& finding : all) {
    errors += finding.severity == Severity::error ? 1 : 0;
  }
  out += fmt::format("{} {}, {} {}{}.\n\n", errors, errors == 1 ? "error" : "errors",
                     all.size() - errors, all.size() - errors == 1 ? "warning" : "warnings",
                     errors > 0 ? ": `git vault check` fails" : "");
  // Every error, and the warnings in files the range changes; a warning elsewhere was there
  // before this branch, as a commit's gate only speaks of the files the commit changes.
  std::vector<Finding> findings;
  std::map<std::string, std::size_t> untouched;
  std::size_t untouched_count = 0;
  for (const Finding& finding : all) {
    if (finding.severity == Severity::error || changed_paths.contains(finding.path)) {
      findings.push_back(finding);
    } else {
      ++untouched[finding.check];
      ++untouched_count;
    }
  }
  const std::size_t shown = std::min(findings.size(), options.max_rows);
  for (std::size_t i = 0; i < shown; ++i) {
    const Finding& f = findings[i];
    const std::string where = f.line ? fmt::format("{}:{}", f.path, *f.line) : f.path;
    out += fmt::format("- **{}** `{}` {} ({}){}\n",
                       f.severity == Severity::error ? "error" : "warning", where, cell(f.message),
                       f.check, f.fix.empty() ? "" : " — fix: " + code(f.fix));
  }
  if (shown < findings.size()) {
    std::map<std::string, std::size_t> counts;
    for (const Finding& f : findings) {
      ++counts[f.check];
    }
    out +=
        fmt::format("\n…and {} more (by check: {}).\n", findings.size() - shown, breakdown(counts));
  }
  if (untouched_count > 0) {
    out += fmt::format("{}{} {} in files this branch does not change (by check: {}).\n",
                       findings.empty() ? "" : "\n", untouched_count,
                       untouched_count == 1 ? "warning" : "warnings", breakdown(untouched));
  }
}

nlohmann::ordered_json entry_json(const EntryAt& x) {
  return {{"id", x.id}, {"path", x.path}, {"tier", x.tier}, {"line", x.line}, {"text", x.text}};
}

nlohmann::ordered_json date_json(const std::optional<Date>& date) {
  return date ? nlohmann::ordered_json(format_date(*date)) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json health_json(const HealthSide& h) {
  return {{"health_score", h.health_score},
          {"status", h.status},
          {"active_memories", h.active},
          {"tombstoned_memories", h.tombstoned},
          {"total_tokens", h.tokens},
          {"purge_candidates", h.purge_candidates},
          {"merge_candidates", h.merge_candidates},
          {"compress_candidates", h.compress_candidates},
          {"review_candidates", h.review_candidates}};
}

}  // namespace

std::string render_markdown(const Review& review, const RenderOptions& options) {
  std::string out = fmt::format("## git-vault review `{}..{}`\n\n**{}**\n\n", short_id(review.base),
                                short_id(review.head), summary_line(review));
  out += fmt::format("{} {} in the range; {} memory {} unchanged.\n", review.commit_count,
                     review.commit_count == 1 ? "commit" : "commits", review.memories.unchanged,
                     review.memories.unchanged == 1 ? "file" : "files");
  health_section(out, review);
  memory_sections(out, review.memories, options);
  working_sections(out, review.working, options);
  maintenance_section(out, review.maintenance, options);
  gate_section(out, review.gate, review.changed_paths, options);
  return out;
}

nlohmann::ordered_json review_json(const Review& review) {
  using Json = nlohmann::ordered_json;
  const MemoryDiff& m = review.memories;
  Json added = Json::array();
  for (const AddedMemory& x : m.added) {
    added.push_back({{"id", x.id},
                     {"title", x.title},
                     {"category", x.category},
                     {"topic", x.topic},
                     {"token_count", x.token_count},
                     {"tombstoned", x.tombstoned}});
  }
  Json changed = Json::array();
  for (const ChangedMemory& x : m.changed) {
    Json changes = Json::array();
    for (const FieldChange& change : x.changes) {
      Json item{{"field", change.field},
                {"before", change.before ? Json(*change.before) : Json()},
                {"after", change.after ? Json(*change.after) : Json()}};
      if (change.is_list()) {
        item["added"] = change.added;
        item["removed"] = change.removed;
      }
      changes.push_back(std::move(item));
    }
    changed.push_back({{"id", x.id},
                       {"title", x.title},
                       {"fields", x.fields},
                       {"changes", std::move(changes)},
                       {"body_changed", x.body_changed},
                       {"tokens_before", x.tokens_before},
                       {"tokens_after", x.tokens_after},
                       {"body_lines_added", x.body_lines_added},
                       {"body_lines_removed", x.body_lines_removed}});
  }
  Json tombstoned = Json::array();
  for (const TombstonedMemory& x : m.tombstoned) {
    tombstoned.push_back({{"id", x.id}, {"title", x.title}, {"reason", x.reason}});
  }
  Json merged = Json::array();
  for (const MergedPair& x : m.merged) {
    merged.push_back({{"primary", x.primary}, {"secondary", x.secondary}});
  }
  Json compressed = Json::array();
  for (const CompressedMemory& x : m.compressed) {
    compressed.push_back(
        {{"id", x.id}, {"tokens_before", x.tokens_before}, {"tokens_after", x.tokens_after}});
  }
  Json deleted = Json::array();
  for (const DeletedMemory& x : m.deleted) {
    deleted.push_back({{"id", x.id}, {"title", x.title}, {"was_tombstoned", x.was_tombstoned}});
  }
  Json renamed = Json::array();
  for (const RenamedMemory& x : m.renamed) {
    renamed.push_back({{"from", x.from}, {"to", x.to}, {"title", x.title}});
  }
  Json retrieval = Json::array();
  for (const RetrievalChange& x : m.retrieval) {
    retrieval.push_back({{"id", x.id},
                         {"count_before", x.count_before},
                         {"count_after", x.count_after},
                         {"last_retrieved_before", date_json(x.last_before)},
                         {"last_retrieved_after", date_json(x.last_after)}});
  }
  const WorkingDiff& w = review.working;
  Json w_added = Json::array();
  for (const EntryAt& x : w.added) {
    w_added.push_back(entry_json(x));
  }
  Json w_removed = Json::array();
  for (const EntryAt& x : w.removed) {
    w_removed.push_back(entry_json(x));
  }
  Json w_edited = Json::array();
  for (const EditedEntry& x : w.edited) {
    w_edited.push_back({{"id", x.id},
                        {"path", x.path},
                        {"line", x.line},
                        {"before", x.before},
                        {"after", x.after}});
  }
  Json w_moved = Json::array();
  for (const MovedEntry& x : w.moved) {
    w_moved.push_back({{"id", x.from.id},
                       {"from", entry_json(x.from)},
                       {"to", entry_json(x.to)},
                       {"edited", x.edited}});
  }
  Json maintenance = Json::array();
  for (const MaintenanceCommit& x : review.maintenance) {
    Json log = nullptr;
    if (x.log) {
      log = {{"type", x.log->type},
             {"notes", x.log->notes},
             {"health_before", x.log->health_before ? Json(*x.log->health_before) : Json(nullptr)},
             {"health_after", x.log->health_after ? Json(*x.log->health_after) : Json(nullptr)}};
    }
    maintenance.push_back({{"commit", x.commit},
                           {"summary", x.summary},
                           {"action", x.action},
                           {"log_id", x.log_id.empty() ? Json(nullptr) : Json(x.log_id)},
                           {"memories", x.memories},
                           {"log", log}});
  }
  Json gate = findings_json(review.gate);
  gate.erase("schema");
  return {
      {"schema", 1},
      {"base", review.base},
      {"head", review.head},
      {"commits", review.commit_count},
      {"summary", summary_line(review)},
      {"memories",
       {{"added", added},
        {"changed", changed},
        {"tombstoned", tombstoned},
        {"merged", merged},
        {"compressed", compressed},
        {"deleted", deleted},
        {"renamed", renamed},
        {"restored", m.restored},
        {"retrieval", retrieval},
        {"unreadable", m.unreadable},
        {"unchanged", m.unchanged}}},
      {"working_memory",
       {{"added", w_added}, {"removed", w_removed}, {"edited", w_edited}, {"moved", w_moved}}},
      {"health", {{"before", health_json(review.before)}, {"after", health_json(review.after)}}},
      {"maintenance", maintenance},
      {"gate", gate}};
}

}  // namespace gv::review
