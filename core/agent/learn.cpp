#include "core/agent/learn.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "core/distill/memory_write.hpp"
#include "core/distill/refine_rules.hpp"
#include "core/distill/text_edits.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/landing/land.hpp"
#include "core/memory/body.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/memory/parse.hpp"
#include "core/search/analyzer.hpp"
#include "core/search/search.hpp"
#include "core/secrets/detector.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/text.hpp"
#include "core/vault/id_naming.hpp"
#include "core/vault/vault.hpp"

namespace gv::agent {
namespace {

constexpr std::size_t k_candidates = 5;
constexpr double k_update_above = 0.6;
constexpr double k_extend_from = 0.3;
// Five key terms need two in common to reach k_extend_from; fewer terms need as many.
constexpr std::size_t k_least_shared = 2;
// The categories the scoring gives a meaning (doc/vault-format.md).
constexpr std::array<std::string_view, 5> k_learn_categories{"CONFIG", "WORKFLOW", "PATTERN",
                                                             "TECHNIQUE", "INSIGHT"};
// A summary is one sentence; one longer than this ends after its last whole clause that fits.
constexpr std::size_t k_summary_bytes = 200;

bool is_term_byte(char c) { return search::is_word_byte(c) || c == '-' || c == '_'; }

std::string lower(std::string_view text) { return util::to_lower_ascii(text); }

using util::trim;

// Normalized words of `terms`, each term split the way search splits text. A compound counts by
// its parts alone: `retry-backoff` is the two words a memory keyed `retry, backoff` holds.
std::set<std::string> term_set(const std::vector<std::string>& terms) {
  std::set<std::string> out;
  search::Analyzer analyzer;
  for (const std::string& term : terms) {
    search::for_each_token(term, [&](std::string_view token, std::size_t) {
      const std::vector<std::string_view>& analyzed = analyzer.terms_of(token);
      for (std::size_t i = analyzed.size() > 1 ? 1 : 0; i < analyzed.size(); ++i) {
        out.emplace(analyzed[i]);
      }
    });
  }
  return out;
}

// How rare `term` (an analysed word, as term_set gives) is among the vault's memories: its
// inverse document frequency, as search weighs it. A word no memory holds weighs as one a single
// memory holds: new words are what an extension brings, and must not make every memory look
// unrelated.
double rarity(const search::SearchIndex& index, std::string_view term) {
  const auto memories = static_cast<double>(index.memory_count());
  const auto holding = static_cast<double>(std::max<std::size_t>(index.memory_frequency(term), 1));
  return std::log(1.0 + (memories - holding + 0.5) / (holding + 0.5));
}

// Overlap scoring with each word weighed by how rare it is among the vault's memories (its
// inverse document frequency, as search weighs it): the share of the segment's weight that the
// memory holds. Sharing the words half the vault uses ("project", "command") then counts for
// little, and sharing the segment's own subject for much (doc/agent.md, "git vault learn").
double rarity_weighted_overlap(const std::set<std::string>& segment_words,
                               const std::set<std::string>& memory_words,
                               const search::SearchIndex& index) {
  double total = 0.0;
  double shared = 0.0;
  for (const std::string& word : segment_words) {
    const double weight = rarity(index, word);
    total += weight;
    shared += memory_words.contains(word) ? weight : 0.0;
  }
  return total > 0.0 ? shared / total : 0.0;
}

// Whether the title names a word of `memory`'s topic (`zed/config` for "Zed project tasks").
bool title_names_topic(const std::set<std::string>& title_words, const Memory& memory) {
  std::string words = memory.topic;
  std::replace(words.begin(), words.end(), '/', ' ');
  const std::set<std::string> topic_words = term_set({words});
  return std::any_of(topic_words.begin(), topic_words.end(),
                     [&](const std::string& word) { return title_words.contains(word); });
}

// The memory a new one is placed beside, for its topic and category: the best candidate when
// it is a real match (its overlap reaches EXTEND); else the best candidate, then any memory,
// whose topic the title names; else the best candidate. A candidate that shares one common
// word would otherwise file a note on Zed's tasks under the agent's context layers.
const Memory* placement_neighbour(const Vault& vault, const std::vector<OverlapMatch>& matches,
                                  std::string_view title) {
  const Memory* best = matches.empty() ? nullptr : find_memory(vault, matches.front().id);
  if (best != nullptr && reaches_extend(matches.front().overlap)) {
    return best;
  }
  const std::set<std::string> title_words = term_set({std::string(title)});
  for (const OverlapMatch& match : matches) {
    const Memory* memory = find_memory(vault, match.id);
    if (memory != nullptr && title_names_topic(title_words, *memory)) {
      return memory;
    }
  }
  for (const Memory& memory : vault.memories) {
    if (memory.active() && title_names_topic(title_words, memory)) {
      return &memory;
    }
  }
  return best;
}

// The summary a memory gets when none is given: the first sentence of its prose, never cut
// inside a clause (distill::first_sentence); content without prose (code or a table only)
// falls back to the title.
std::string summary_of(std::string_view title, std::string_view content) {
  return distill::first_sentence(content, k_summary_bytes).value_or(std::string(trim(title)));
}

std::string flow_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : ", ") + yaml_plain_or_quoted(items[i]);
  }
  return out + "]";
}

// Headings of text moved two levels down, so old content under `### Previous Version` never
// ends the `## History` section it is moved into.
std::string demote_headings(std::string_view text) {
  std::vector<distill::TextEdit> edits;
  for (const Heading& heading : find_headings(text)) {
    const std::size_t hashes = text.find('#', heading.begin);
    const std::size_t extra = static_cast<std::size_t>(std::min(2, 6 - heading.level));
    edits.push_back({hashes, hashes, std::string(extra, '#')});
  }
  return distill::apply_edits(text, std::move(edits));
}

// The content as the main section of a memory: without a leading `# title` line that repeats
// the title, trimmed, ending in one newline. Refuses the headings that delimit sections.
std::string checked_content(std::string_view title, std::string_view content) {
  std::string_view text = distill::trim_blank_lines(content);
  const std::vector<Heading> headings = find_headings(text);
  if (!headings.empty() && headings.front().begin == 0 && headings.front().level == 1 &&
      lower(headings.front().text) == lower(trim(title))) {
    text = distill::trim_blank_lines(text.substr(headings.front().next));
  }
  for (const Heading& heading : find_headings(text)) {
    if (heading.level <= 2 && (heading.text == "History" || heading.text == "Connections")) {
      throw Error(
          "content line {}: a `{} {}` heading would split the memory's sections; use another "
          "heading",
          heading.line, std::string(static_cast<std::size_t>(heading.level), '#'), heading.text);
    }
  }
  if (text.empty()) {
    throw UsageError("nothing to learn: the content is empty");
  }
  return fmt::format("{}\n", text);
}

std::vector<std::string> union_keywords(const std::vector<std::string>& existing,
                                        const std::vector<std::string>& added) {
  std::vector<std::string> out = existing;
  std::set<std::string> keys;
  for (const std::string& keyword : existing) {
    keys.insert(keyword_key(keyword));
  }
  for (const std::string& keyword : added) {
    if (keys.insert(keyword_key(keyword)).second) {
      out.push_back(keyword);
    }
  }
  return out;
}

std::string render_create(const LearnInput& input, std::string_view category,
                          std::string_view topic, const std::vector<std::string>& keywords,
                          std::string_view summary, std::string_view content, Date today) {
  const std::string date = format_date(today);
  std::string out = "---\n";
  out += fmt::format("title: {}\n", yaml_double_quoted(trim(input.title)));
  out += fmt::format("created: {}\n", date);
  out += fmt::format("tags: {}\n", flow_list({std::string(category)}));
  out += fmt::format("topic: {}\n", yaml_double_quoted(topic));
  out += fmt::format("source: {}\n", yaml_double_quoted(input.source));
  out += fmt::format("modified: {}\n", date);
  out += fmt::format("keywords: {}\n", flow_list(keywords));
  out += fmt::format("summary: {}\n", yaml_double_quoted(summary));
  out += "retrieval_count: 0\nlast_retrieved:\n---\n\n";
  out += fmt::format("# {}\n\n{}\n", trim(input.title), content);
  out += "## Connections\n<!-- Add links to related memories using [[filename]] syntax -->\n";
  return out;
}

// UPDATE (doc/agent.md, "git vault learn"): the new content becomes the main section; the old one
// moves to the top of a single `## History` as `### Previous Version ({created})`; Connections
// stay.
std::string render_update(const Memory& target, std::string_view bytes, const LearnInput& input,
                          const std::vector<std::string>& keywords, std::string_view content,
                          std::string_view summary, Date today) {
  const FrontmatterSplit split = split_frontmatter(bytes);
  const std::string_view eol = split.line_ending;
  const std::string_view body = split.body(bytes);
  const BodySections sections = locate_sections(body);
  const std::string_view old_main = distill::trim_blank_lines(
      body.substr(sections.main.begin, sections.main.end - sections.main.begin));
  const std::string entry =
      old_main.empty()
          ? std::string{}
          : distill::with_eol(fmt::format("### Previous Version ({})\n\n{}\n",
                                          format_date(target.created), demote_headings(old_main)),
                              eol);

  std::vector<distill::TextEdit> edits;
  const std::string title_line = distill::with_eol(fmt::format("# {}\n", trim(input.title)), eol);
  if (sections.title_line) {
    edits.push_back({sections.title_line->begin, sections.title_line->end, title_line});
  }
  std::string main_text = distill::with_eol(
      fmt::format("{}{}{}", sections.title_line ? "\n" : title_line + "\n", content, ""), eol);
  if (!sections.history && !entry.empty()) {
    main_text += distill::with_eol("\n## History\n\n", eol) + entry;
  }
  if (sections.main.end < body.size()) {
    main_text += eol;
  }
  edits.push_back({sections.main.begin, sections.main.end, std::move(main_text)});
  if (sections.history && !entry.empty()) {
    const ByteRange history = *sections.history;
    const std::size_t heading_end = body.find('\n', history.begin);
    const std::size_t content_begin =
        heading_end == std::string_view::npos || heading_end >= history.end ? history.end
                                                                            : heading_end + 1;
    const std::string_view old_entries =
        distill::trim_blank_lines(body.substr(content_begin, history.end - content_begin));
    const std::size_t entries_begin =
        old_entries.empty()
            ? history.end
            : content_begin +
                  static_cast<std::size_t>(old_entries.data() - (body.data() + content_begin));
    std::string text =
        fmt::format("{}{}{}", heading_end == std::string_view::npos ? eol : "", eol, entry);
    if (!old_entries.empty() || history.end < body.size()) {
      text += eol;
    }
    edits.push_back({content_begin, entries_begin, std::move(text)});
  }
  const std::string new_body = distill::apply_edits(body, std::move(edits));

  FrontmatterEditor editor(target.path, bytes);
  editor.set_scalar("title", yaml_double_quoted(trim(input.title)));
  editor.insert_fields({{"modified", format_date(today)}}, "created", "tags");
  // `source` says where the memory came from (a task's folder ties later events of the task to
  // it): an update keeps it, and sets it only on a memory that had none.
  if (trim(target.source).empty()) {
    editor.set_scalar("source", yaml_double_quoted(input.source));
  }
  // The summary describes the main content, which this replaces.
  editor.set_scalar("summary", yaml_double_quoted(summary));
  if (input.topic) {
    editor.set_scalar("topic", yaml_double_quoted(*input.topic));
  }
  const std::vector<std::string> merged = union_keywords(target.keywords, keywords);
  if (merged.size() != target.keywords.size()) {
    editor.set_list("keywords", merged);
  }
  const std::string edited = editor.bytes();
  return edited.substr(0, split_frontmatter(edited).body_begin) + new_body;
}

// EXTEND (doc/agent.md, "git vault learn"): a `## Extension ({today})` block before `## History`
// (which sits right before Connections) or `## Connections`, or at the end.
std::string render_extend(const Memory& target, std::string_view bytes, const LearnInput& input,
                          const std::vector<std::string>& keywords, std::string_view content,
                          Date today) {
  const FrontmatterSplit split = split_frontmatter(bytes);
  const std::string_view eol = split.line_ending;
  const std::string_view body = split.body(bytes);
  const BodySections sections = locate_sections(body);
  std::size_t at = body.size();
  if (sections.history) {
    at = sections.history->begin;
  } else if (sections.connections) {
    at = sections.connections->begin;
  }
  // The title says what the extension is about, under the dated heading other tools read.
  std::string block =
      distill::with_eol(fmt::format("## Extension ({})\n\n### {}\n\n**Source**: {}\n\n{}",
                                    format_date(today), trim(input.title), input.source, content),
                        eol);
  // A blank line before the block, whatever the text before it ends with.
  std::string before;
  const std::string_view head = body.substr(0, at);
  if (!head.empty() && !head.ends_with('\n')) {
    before = fmt::format("{}{}", eol, eol);
  } else if (!head.empty() && !head.ends_with("\n\n") && !head.ends_with("\n\r\n")) {
    before = std::string(eol);
  }
  if (at < body.size()) {
    block += eol;
  }
  const std::string new_body = distill::apply_edits(body, {{at, at, before + block}});

  FrontmatterEditor editor(target.path, bytes);
  editor.insert_fields({{"modified", format_date(today)}}, "created", "tags");
  if (input.topic) {
    editor.set_scalar("topic", yaml_double_quoted(*input.topic));
  }
  const std::vector<std::string> merged = union_keywords(target.keywords, keywords);
  if (merged.size() != target.keywords.size()) {
    editor.set_list("keywords", merged);
  }
  const std::string edited = editor.bytes();
  return edited.substr(0, split_frontmatter(edited).body_begin) + new_body;
}

void check_valid(std::string_view path, std::string_view bytes) {
  const ParsedMemory parsed = parse_memory(path, bytes, blob_oid(bytes));
  for (const Finding& finding : parsed.findings) {
    if (finding.severity == Severity::error) {
      throw Error("{}:{}: the memory would not be valid: {}", path, finding.line.value_or(1),
                  finding.message);
    }
  }
  if (!parsed.memory) {
    throw Error("{}: the memory would not be valid", path);
  }
}

}  // namespace

std::string_view op_name(LearnOp op) {
  switch (op) {
    case LearnOp::create:
      return "CREATE";
    case LearnOp::update:
      return "UPDATE";
    case LearnOp::extend:
      return "EXTEND";
  }
  return "CREATE";
}

LearnOverride parse_learn_override(std::string_view text) {
  if (text == "new") {
    return {LearnOp::create, {}};
  }
  for (const auto& [prefix, op] : {std::pair{std::string_view("update:"), LearnOp::update},
                                   std::pair{std::string_view("extend:"), LearnOp::extend}}) {
    if (text.starts_with(prefix) && text.size() > prefix.size()) {
      return {op, std::string(text.substr(prefix.size()))};
    }
  }
  throw UsageError("--as: expected `new`, `update:ID` or `extend:ID`, got `{}`", text);
}

std::vector<std::string> extract_key_terms(std::string_view text, std::size_t count,
                                           const WordWeight& weight) {
  struct Stat {
    std::size_t frequency = 0;
    std::size_t first = 0;
    bool technical = false;
    double score = 0.0;
  };
  std::map<std::string, Stat> stats;
  std::size_t order = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !is_term_byte(text[i])) {
      ++i;
    }
    std::size_t begin = i;
    while (i < text.size() && is_term_byte(text[i])) {
      ++i;
    }
    std::size_t end = i;
    while (begin < end && (text[begin] == '-' || text[begin] == '_')) {
      ++begin;
    }
    while (end > begin && (text[end - 1] == '-' || text[end - 1] == '_')) {
      --end;
    }
    if (end - begin <= 4) {
      continue;
    }
    const std::string word = lower(text.substr(begin, end - begin));
    if (search::is_query_stop_word(word)) {  // the original's list and Snowball's
      continue;
    }
    Stat& stat = stats[word];
    if (stat.frequency == 0) {
      stat.first = order++;
      stat.technical = word.find_first_of("0123456789-_") != std::string::npos;
    }
    ++stat.frequency;
  }
  std::vector<std::pair<std::string, Stat>> ranked(stats.begin(), stats.end());
  for (auto& [word, stat] : ranked) {
    stat.score = static_cast<double>(stat.frequency) * (weight ? weight(word) : 1.0);
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    if (a.second.score != b.second.score) {
      return a.second.score > b.second.score;
    }
    if (a.second.technical != b.second.technical) {
      return a.second.technical;
    }
    return a.second.first < b.second.first;
  });
  std::vector<std::string> terms;
  for (std::size_t k = 0; k < ranked.size() && k < count; ++k) {
    terms.push_back(ranked[k].first);
  }
  return terms;
}

double overlap_score(const std::vector<std::string>& segment_terms,
                     const std::vector<std::string>& memory_terms) {
  const std::set<std::string> segment = term_set(segment_terms);
  if (segment.empty()) {
    return 0.0;
  }
  const std::set<std::string> memory = term_set(memory_terms);
  std::size_t shared = 0;
  for (const std::string& term : segment) {
    shared += memory.contains(term) ? 1 : 0;
  }
  return static_cast<double>(shared) / static_cast<double>(segment.size());
}

distill::TermScoring learn_term_scoring() {
  distill::TermScoring scoring;
  scoring.key_terms = [](std::string_view text) { return extract_key_terms(text); };
  scoring.overlap = overlap_score;
  scoring.words = term_set;
  return scoring;
}

LearnOp classify_overlap(double overlap, std::size_t shared_terms) {
  if (shared_terms < k_least_shared) {
    return LearnOp::create;
  }
  // The thresholds are compared on the exact fractions a handful of terms give (3/5 = 0.6 is
  // MEDIUM): a small tolerance keeps 0.6000000001 from floating-point noise out of HIGH.
  if (overlap > k_update_above + 1e-9) {
    return LearnOp::update;
  }
  if (reaches_extend(overlap)) {
    return LearnOp::extend;
  }
  return LearnOp::create;
}

bool reaches_extend(double overlap) { return overlap >= k_extend_from - 1e-9; }

std::string learn_category(std::string_view title, std::string_view content,
                           const Memory* nearest) {
  std::string category = nearest != nullptr && !nearest->category.empty() ? category_key(*nearest)
                                                                          : std::string("INSIGHT");
  // refine's cue-word rule reads the same text (title and main content); where it would
  // reclassify the memory, its answer is taken now, so refine never contradicts learn.
  if (const auto guess = distill::infer_category(fmt::format("{}\n{}", title, content), category)) {
    category = guess->category;
  }
  return category;
}

LearnPlan plan_learn(const Snapshot& snapshot, const LearnInput& input,
                     const std::optional<LearnOverride>& override, Date today, ParseCache* cache,
                     const std::filesystem::path& search_cache) {
  if (trim(input.title).empty()) {
    throw UsageError("a memory needs a title (--title)");
  }
  if (input.title.find('\n') != std::string::npos) {
    throw UsageError("the title must be one line");
  }
  const std::string content = checked_content(input.title, input.content);
  // Any category parses (it then has no TTL), but one learn writes is a person's or an agent's
  // choice among the five the scoring knows, and a typo would hide the memory from its TTL.
  if (!input.category.empty() &&
      std::find(k_learn_categories.begin(), k_learn_categories.end(),
                category_key(std::string_view(input.category))) == k_learn_categories.end()) {
    throw UsageError("category `{}` is not one of {} (any case)", input.category,
                     fmt::join(k_learn_categories, ", "));
  }
  const Vault vault = load_vault(snapshot, cache);

  search::SearchIndex index;
  if (!search_cache.empty()) {
    index.load_saved(search_cache);
  }
  index.refresh(vault.memories, snapshot);

  // The key terms say what this text is about among the vault's memories: a word counts by its
  // frequency times its rarity in the vault, so that the words every memory uses ("project",
  // "command") give way to the text's own subject (doc/agent.md, "git vault learn").
  LearnPlan result;
  LearnDecision& decision = result.decision;
  // A word of the title counts twice: the title names the subject.
  const std::set<std::string> title_words = term_set({input.title});
  const auto word_weight = [&index, &title_words](std::string_view word) {
    const std::set<std::string> terms = term_set({std::string(word)});
    double least = terms.empty() ? 0.0 : std::numeric_limits<double>::max();
    bool in_title = !terms.empty();
    for (const std::string& term : terms) {
      least = std::min(least, rarity(index, term));
      in_title = in_title && title_words.contains(term);
    }
    return in_title ? 2 * least : least;
  };
  decision.key_terms =
      input.keywords.empty()
          ? extract_key_terms(fmt::format("{}\n{}", input.title, content), 5, word_weight)
          : input.keywords;

  // The five best search hits for the key terms, then the overlap with each.
  std::string query;
  for (const std::string& term : decision.key_terms) {
    query += term + " ";
  }
  const std::set<std::string> segment_words = term_set(decision.key_terms);
  for (const search::Hit& hit :
       index.search(query, search::Scope::memories, k_candidates, snapshot)) {
    const Memory* memory = find_memory(vault, hit.id);
    const std::optional<std::string> bytes = snapshot.read(memory->path);
    if (!bytes) {
      continue;
    }
    const FrontmatterSplit split = split_frontmatter(*bytes);
    std::vector<std::string> memory_terms = memory->keywords;
    for (std::string& term :
         extract_key_terms(fmt::format("{}\n{}", memory->title, split.body(*bytes)))) {
      memory_terms.push_back(std::move(term));
    }
    OverlapMatch match;
    match.id = memory->id;
    match.title = memory->title;
    const std::set<std::string> held = term_set(memory_terms);
    match.overlap = rarity_weighted_overlap(segment_words, held, index);
    for (const std::string& term : decision.key_terms) {
      const std::set<std::string> words = term_set({term});
      if (!words.empty() && std::all_of(words.begin(), words.end(),
                                        [&](const std::string& w) { return held.contains(w); })) {
        match.shared.push_back(term);
      }
    }
    // Counted as the overlap counts them: words, so a compound term shares each of its words.
    const auto shared_words = static_cast<std::size_t>(
        std::count_if(segment_words.begin(), segment_words.end(),
                      [&](const std::string& word) { return held.contains(word); }));
    match.recommended = classify_overlap(match.overlap, shared_words);
    decision.matches.push_back(std::move(match));
  }
  // A memory that shares none of the terms is no candidate, whatever search ranked it.
  std::erase_if(decision.matches, [](const OverlapMatch& match) { return match.overlap <= 0.0; });
  std::stable_sort(
      decision.matches.begin(), decision.matches.end(),
      [](const OverlapMatch& a, const OverlapMatch& b) { return a.overlap > b.overlap; });

  const Memory* target = nullptr;
  if (override) {
    decision.overridden = true;
    decision.op = override->op;
    if (override->op != LearnOp::create) {
      target = find_memory(vault, override->id);
      if (target == nullptr) {
        throw Error("{}:{}: no memory has the id {}", lower(op_name(override->op)), override->id,
                    override->id);
      }
    }
  } else if (!decision.matches.empty()) {
    decision.op = decision.matches.front().recommended;
    if (decision.op != LearnOp::create) {
      target = find_memory(vault, decision.matches.front().id);
    }
  }
  if (target != nullptr && !target->active()) {
    throw Error("{} is tombstoned; learn into an active memory or as a new one", target->id);
  }

  std::string bytes;
  const std::string summary =
      input.summary.empty() ? summary_of(input.title, content) : std::string(trim(input.summary));
  if (decision.op == LearnOp::create) {
    // What the caller left open comes from the memory nearest in terms, so the new one sits
    // among its neighbours rather than under "(no topic)".
    const Memory* nearest = placement_neighbour(vault, decision.matches, input.title);
    const std::string topic = input.topic          ? *input.topic
                              : nearest != nullptr ? nearest->topic
                                                   : distill::usual_topic(vault.memories);
    const std::string category = input.category.empty()
                                     ? learn_category(input.title, content, nearest)
                                     : category_key(std::string_view(input.category));
    std::vector<std::string> ids;
    ids.reserve(vault.memories.size());
    for (const Memory& memory : vault.memories) {
      ids.push_back(memory.id);
    }
    decision.id = name_memory(
        detect_id_naming(ids), ids, input.title, category, today, [&](std::string_view id) {
          return find_memory(vault, id) != nullptr || snapshot.read(memory_path(id)).has_value();
        });
    decision.path = memory_path(decision.id);
    bytes = render_create(input, category, topic, decision.key_terms, summary, content, today);
  } else {
    decision.id = target->id;
    decision.path = target->path;
    const std::optional<std::string> old = snapshot.read(target->path);
    if (!old) {
      throw Error("{}: cannot read", target->path);
    }
    // Only keywords the caller gave are added: terms extracted from the new text are words
    // like "changes" or "system", filler in a memory that already has its own.
    const std::vector<std::string>& added = input.keywords;
    bytes = decision.op == LearnOp::update
                ? render_update(*target, *old, input, added, content, summary, today)
                : render_extend(*target, *old, input, added, content, today);
  }
  check_valid(decision.path, bytes);

  result.plan.write(decision.path, std::move(bytes));
  result.plan.subject =
      fmt::format("vault(learn): {} {}", lower(op_name(decision.op)), decision.id);
  result.plan.action = "learn";
  result.plan.memories = {decision.id};
  return result;
}

}  // namespace gv::agent

namespace gv::agent {

void refuse_secrets(const LearnInput& input) {
  std::vector<std::string> places;
  // Content read from a file is named as `path:line`, so an editor can jump to it.
  const std::string& file = input.file;
  auto scan = [&](std::string_view where, std::string_view text, bool with_line) {
    for (const secrets::SecretFinding& finding : secrets::scan_secrets(text)) {
      if (with_line && !file.empty()) {
        places.push_back(fmt::format("{}:{} ({})", file, finding.line, finding.kind));
      } else {
        places.push_back(with_line
                             ? fmt::format("{} line {} ({})", where, finding.line, finding.kind)
                             : fmt::format("{} ({})", where, finding.kind));
      }
    }
  };
  scan("title", input.title, false);
  scan("summary", input.summary, false);
  for (const std::string& keyword : input.keywords) {
    scan("keywords", keyword, false);
  }
  scan("content", input.content, true);
  if (!places.empty()) {
    throw Error(
        "refusing to store what looks like a secret: {}; remove it or replace it with a "
        "placeholder",
        fmt::join(places, ", "));
  }
}

LearnOutcome learn(git::Repo& repo, const LearnInput& input,
                   const std::optional<LearnOverride>& override, Date today,
                   const LearnFlags& flags, ParseCache* cache) {
  refuse_secrets(input);
  // The state the plan is computed from, taken before the read: the landing refuses when the
  // vault moved meanwhile (git::capture_read_state).
  std::optional<git::ReadState> read_state;
  if (!flags.dry_run) {
    read_state = git::capture_read_state(repo, {std::string(vault_path::k_root)});
  }
  const WorktreeSnapshot snapshot(repo.workdir());
  LearnOutcome outcome;
  outcome.learned = plan_learn(snapshot, input, override, today, cache,
                               search::search_cache_path(repo.common_dir()));
  if (flags.dry_run) {
    return outcome;
  }
  landing::Context context;
  context.clock.today = today;
  context.cache = cache;
  landing::Target target;
  target.commit = flags.commit;
  // Without a commit the files only land in the work tree, built from what is there already:
  // nothing of the user's is overwritten, so uncommitted vault changes need not block it.
  target.allow_dirty = flags.allow_dirty || !flags.commit;
  target.guarded_paths = {std::string(vault_path::k_root)};
  target.offers_allow_dirty = flags.offers_allow_dirty;
  target.read_state = std::move(read_state);
  landing::Landed landed = landing::land(
      repo, snapshot, landing::IndexRegeneration{outcome.learned.plan}, context, target);
  outcome.commit = landed.commit;
  outcome.learned.plan = std::move(landed.plan);
  outcome.written = true;
  return outcome;
}

}  // namespace gv::agent
