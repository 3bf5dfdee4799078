// The compress sub-mode: shrink oversized memories to their key points, keeping the original
// text in History (doc/merge-and-compress.md, "compress"; doc/decisions.md, D9, D10).
#include "core/distill/compress.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/distill/selection.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/distill/summarize.hpp"
#include "core/distill/text_edits.hpp"
#include "core/error.hpp"
#include "core/memory/body.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/memory/tokens.hpp"
#include "core/scoring/score.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/row_limit.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::distill {
namespace {

constexpr double k_compress_threshold = 0.5;

FrontmatterSplit checked_split(std::string_view path, std::string_view bytes) {
  FrontmatterSplit split = split_frontmatter(bytes);
  if (split.status != FrontmatterStatus::ok) {
    throw Error("{}:1: no frontmatter block; cannot compress", path);
  }
  return split;
}

}  // namespace

std::string main_content_of(std::string_view path, std::string_view bytes) {
  const FrontmatterSplit split = checked_split(path, bytes);
  const std::string_view body = split.body(bytes);
  const BodySections sections = locate_sections(body);
  return std::string(body.substr(sections.main.begin, sections.main.end - sections.main.begin));
}

std::string checked_summary(std::string_view source, std::string_view output) {
  if (const auto bad = find_invalid_utf8(output)) {
    throw Error(
        "summarizer `{}` printed bytes that are not UTF-8 (at offset {}); nothing was "
        "written",
        source, *bad);
  }
  const std::string_view text = trim_blank_lines(output);
  if (text.empty()) {
    throw Error("summarizer `{}` printed nothing; nothing was written", source);
  }
  for (const Heading& heading : find_headings(text)) {
    if (heading.level == 2 && (heading.text == "History" || heading.text == "Connections")) {
      throw Error(
          "summarizer `{}` printed a `## {}` heading, which would split the memory's "
          "sections; nothing was written",
          source, heading.text);
    }
  }
  return fmt::format("{}\n", text);
}

CompressedFile compress_file(std::string_view path, std::string_view bytes,
                             std::string_view summary, const std::vector<std::string>& keywords,
                             Date today) {
  const FrontmatterSplit split = checked_split(path, bytes);
  const std::string_view eol = split.line_ending;
  const std::string_view body = split.body(bytes);
  const BodySections sections = locate_sections(body);
  const std::string_view old_main =
      body.substr(sections.main.begin, sections.main.end - sections.main.begin);

  CompressedFile result;
  result.tokens_before = token_count(body);
  result.keywords_added = lost_keywords(old_main, summary, keywords);
  result.keywords_preserved = result.keywords_added.empty();

  std::string new_main = std::string(summary);
  if (!result.keywords_added.empty()) {
    new_main += fmt::format("\n**Keywords**: {}\n", fmt::join(result.keywords_added, ", "));
  }
  const std::string entry = fmt::format("### Pre-Compression ({}){}{}{}{}", format_date(today), eol,
                                        eol, demote_headings(trim_blank_lines(old_main)), eol);
  const bool more_after_main = sections.main.end < body.size();

  std::vector<TextEdit> edits;
  std::string main_text = fmt::format("{}{}", sections.title_line ? "\n" : "", new_main);
  if (!sections.history) {
    main_text += fmt::format("\n## History\n\n");
    main_text = with_eol(main_text, eol) + entry;
  } else {
    main_text = with_eol(main_text, eol);
  }
  if (more_after_main) {
    main_text += eol;  // a blank line before the heading that follows
  }
  edits.push_back({sections.main.begin, sections.main.end, std::move(main_text)});

  if (sections.history) {
    // The new entry goes first, right under the heading; older entries follow unchanged.
    const ByteRange history = *sections.history;
    const std::size_t heading_end = body.find('\n', history.begin);
    const std::size_t content_begin =
        heading_end == std::string_view::npos || heading_end >= history.end ? history.end
                                                                            : heading_end + 1;
    const std::string_view content = body.substr(content_begin, history.end - content_begin);
    const std::string_view entries = trim_blank_lines(content);
    std::string text = fmt::format("{}{}", eol, entry);
    if (!entries.empty() || history.end < body.size()) {
      text += eol;
    }
    const std::size_t entries_begin =
        entries.empty() ? history.end
                        : content_begin + static_cast<std::size_t>(entries.data() - content.data());
    const std::string prefix = heading_end == std::string_view::npos ? std::string(eol) : "";
    edits.push_back({content_begin, entries_begin, prefix + text});
  }
  const std::string new_body = apply_edits(body, std::move(edits));
  result.tokens_after = token_count(new_body);

  FrontmatterEditor editor(path, bytes);
  editor.insert_fields({{"modified", format_date(today)}}, "created", "tags");
  const std::string edited = editor.bytes();
  result.bytes = edited.substr(0, split_frontmatter(edited).body_begin) + new_body;
  return result;
}

namespace {

std::string summarize(const SubModeContext& context, const Memory& memory,
                      const std::string& main_content) {
  if (context.summarizer) {
    const SummaryRequest request{memory.id, memory.path, memory.keywords, main_content};
    return checked_summary(context.summarizer->source, context.summarizer->summarize(request));
  }
  return checked_summary("built-in", extractive_summary(main_content, memory.keywords));
}

class Compress final : public SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "compress"; }

  [[nodiscard]] CandidateSet candidates(const SubModeContext& context) const override {
    CandidateSet set;
    set.question =
        "Select memories to compress. Original content will be preserved in a History section.";
    set.none_selected_message = "No memories selected for compression. Operation cancelled.";
    const Vault& vault = context.state.vault;
    if (std::none_of(vault.memories.begin(), vault.memories.end(),
                     [](const Memory& memory) { return memory.active(); })) {
      set.stop_message = "No memories in vault to compress.";
      return set;
    }
    std::vector<const scoring::Score*> ranked;
    for (const scoring::Score& score : context.state.report.scores) {
      if (scoring::above(score.size_penalty, k_compress_threshold)) {
        ranked.push_back(&score);
      }
    }
    if (ranked.empty()) {
      set.stop_message =
          "No compress candidates found. All memories are within size limits (token_count <= "
          "900).";
      return set;
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const scoring::Score* a, const scoring::Score* b) {
                       return a->size_penalty != b->size_penalty ? a->size_penalty > b->size_penalty
                                                                 : a->id < b->id;
                     });
    std::string text =
        "## Compress Candidates (Dry Run)\n\n"
        "| Memory | Tokens | Size Penalty | Topic | Est. Compressed |\n"
        "|--------|--------|-------------|-------|-----------------|\n";
    util::RowLimit rows(context.limit);
    for (const scoring::Score* score : ranked) {
      const std::int64_t estimate = score->token_count * 4 / 10;
      if (rows.next()) {
        text += fmt::format("| {} | {} | {:.2f} | {} | ~{} |\n", score->id, score->token_count,
                            score->size_penalty, score->topic, estimate);
      }
      Candidate candidate;
      candidate.key = score->id;
      candidate.label = score->id;
      candidate.details =
          fmt::format("Tokens: {} | Size penalty: {:.2f} | Topic: {} | Retrievals: {}",
                      score->token_count, score->size_penalty,
                      score->topic.empty() ? "(none)" : score->topic, score->retrieval_count);
      candidate.json = {{"id", score->id},
                        {"token_count", score->token_count},
                        {"size_penalty", score->size_penalty}};
      set.candidates.push_back(std::move(candidate));
    }
    const std::string rest = rows.rest_line();
    text += rest.empty() ? "" : "\n" + rest;
    text += fmt::format("\n{} found.\n",
                        util::plural(ranked.size(), "compress candidate", "compress candidates"));
    text += run_hint("--compress", set);
    set.dry_run_text = std::move(text);
    return set;
  }

  [[nodiscard]] Execution execute(const SubModeContext& context,
                                  const std::vector<Candidate>& selected) const override {
    Execution execution;
    ActionDraft& draft = execution.draft;
    draft.type = "compress";
    draft.changed_memories = true;
    const bool external = context.summarizer.has_value();
    std::int64_t saved = 0;
    std::vector<std::string> keyword_notes;
    std::string table;
    // Every summary is made before anything is planned, so a failing command leaves no
    // half-compressed batch behind (the plan is only applied once execute returns anyway). A
    // memory that cannot be compressed is named and skipped; the rest of the batch goes on.
    std::vector<std::string> skipped;
    const MemoriesById by_id(context.state.vault);
    for (const Candidate& candidate : selected) {
      const Memory* memory = by_id.find(candidate.key);
      if (memory == nullptr) {
        throw Error("{}: no such memory", candidate.key);
      }
      std::optional<CompressedFile> attempt;
      try {
        const std::optional<std::string> bytes = context.snapshot.read(memory->path);
        if (!bytes) {
          throw Error("{}: cannot read", memory->path);
        }
        const std::string main_content = main_content_of(memory->path, *bytes);
        const std::string summary = summarize(context, *memory, main_content);
        attempt =
            compress_file(memory->path, *bytes, summary, memory->keywords, context.clock.today);
      } catch (const Error& error) {
        skipped.push_back(fmt::format("{} ({})", memory->id, error.what()));
        continue;
      }
      CompressedFile& compressed = *attempt;
      const double ratio = compressed.tokens_before == 0
                               ? 1.0
                               : static_cast<double>(compressed.tokens_after) /
                                     static_cast<double>(compressed.tokens_before);
      nlohmann::ordered_json item{{"id", memory->id},
                                  {"tokens_before", compressed.tokens_before},
                                  {"tokens_after", compressed.tokens_after},
                                  {"compression_ratio", ratio},
                                  {"keywords_preserved", compressed.keywords_preserved}};
      if (!compressed.keywords_added.empty()) {
        item["keywords_added"] = compressed.keywords_added;
        keyword_notes.push_back(
            fmt::format("{} ({})", memory->id, fmt::join(compressed.keywords_added, ", ")));
      }
      item["action"] = "compressed";
      draft.affected_memories.push_back(std::move(item));
      saved += compressed.tokens_before - compressed.tokens_after;
      table += fmt::format("| {} | {} | {} | {:.2f} | {} |\n", memory->id, compressed.tokens_before,
                           compressed.tokens_after, ratio,
                           compressed.keywords_preserved ? "preserved" : "line added");
      draft.plan.write(memory->path, std::move(compressed.bytes));
      draft.plan.memories.push_back(memory->id);
    }
    const std::size_t done = draft.plan.memories.size();
    if (done == 0 && !skipped.empty()) {
      throw Error("no memory could be compressed: {}", fmt::join(skipped, "; "));
    }
    draft.extra["summarizer"] = external ? "external" : "built-in";
    draft.notes = fmt::format("Compressed {}. Total tokens saved: {}",
                              util::plural(done, "memory", "memories"), saved);
    if (!skipped.empty()) {
      draft.notes += fmt::format(". Skipped: {}", fmt::join(skipped, "; "));
    }
    if (!keyword_notes.empty()) {
      draft.notes +=
          fmt::format(". Keyword preservation: added missing keywords to compressed content: {}",
                      fmt::join(keyword_notes, "; "));
    }
    draft.plan.subject =
        done == 1 ? fmt::format("vault(compress): compress {}", draft.plan.memories.front())
                  : fmt::format("vault(compress): compress {} memories", done);
    execution.summary = fmt::format(
        "## Compress Complete\n\n| Memory | Tokens Before | Tokens After | Ratio | Keywords |\n"
        "|--------|---------------|--------------|-------|----------|\n{}\n"
        "Total tokens saved: {} (main content; each file keeps its previous text under "
        "`## History`, which token counts leave out)\n",
        table, saved);
    for (const std::string& skip : skipped) {
      execution.summary += fmt::format("Skipped {}\n", skip);
    }
    return execution;
  }
};

}  // namespace

std::unique_ptr<SubMode> make_compress() { return std::make_unique<Compress>(); }

}  // namespace gv::distill
