#include "core/agent/ranked_context.hpp"

#include <fmt/format.h>

#include "core/agent/context.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/tokens.hpp"
#include "core/scoring/score.hpp"
#include "core/search/analyzer.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/text.hpp"

namespace gv::agent {
namespace {

// How many hits of each kind are looked at: enough that the budgets, not the list, end the
// selection.
constexpr std::size_t k_memories_considered = 20;
constexpr std::size_t k_entries_considered = 20;

// The relevance floor (doc/search.md, "The floor"), chosen on bench/retrieval: the best hit of
// every one of its 111 related tasks holds at least 27% of the task words' weight (idf), so a
// task whose best hit holds less than a quarter gets nothing. A hit scoring under a fifth of the
// best of its list is noise: cutting there dropped 45 of 600 shown memories, none labelled.
constexpr double k_minimum_coverage = 0.25;
constexpr double k_minimum_relative_score = 0.2;

bool under(std::string_view topic, std::string_view type) {
  return topic == type ||
         (topic.size() > type.size() && topic.starts_with(type) && topic[type.size()] == '/');
}

std::string drop_final_newlines(std::string text) {
  while (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  return text;
}

}  // namespace

RankedContext select_ranked_context(
    const search::SearchIndex& index, const Snapshot& snapshot, std::string_view task,
    const ContextLimits& limits,
    const std::unordered_map<std::string, std::int64_t>& extra_retrievals) {
  RankedContext context;
  context.terms = search::query_terms(task);
  std::map<std::string, search::SearchIndex::Shown, std::less<>> shown;
  std::vector<search::Hit> memories =
      index.rank(task, search::Scope::memories, k_memories_considered, snapshot, extra_retrievals,
                 nullptr, &shown);
  std::vector<search::Hit> entries =
      index.rank(task, search::Scope::working, k_entries_considered, snapshot);

  // The type boosts a memory of that topic (or one under it); the exempt topics
  // stay out unless the task is of type `email`.
  if (!limits.task_type.empty()) {
    for (search::Hit& hit : memories) {
      const auto found = shown.find(hit.id);
      if (found != shown.end() && under(found->second.topic, limits.task_type)) {
        hit.score *= 1.5;
      }
    }
    std::stable_sort(memories.begin(), memories.end(),
                     [](const search::Hit& a, const search::Hit& b) { return a.score > b.score; });
  }
  const double best_memory = memories.empty() ? 0.0 : memories.front().score;
  const double best_coverage = [&] {
    double best = 0.0;
    for (const search::Hit& hit : memories) {
      best = std::max(best, hit.coverage);
    }
    for (const search::Hit& hit : entries) {
      best = std::max(best, hit.coverage);
    }
    return best;
  }();
  if (best_coverage < k_minimum_coverage) {
    return context;
  }
  std::int64_t memory_tokens = 0;
  for (const search::Hit& hit : memories) {
    if (context.memories.size() >= limits.max_memories) {
      break;
    }
    if (hit.score < k_minimum_relative_score * best_memory) {
      break;
    }
    const auto found = shown.find(hit.id);
    if (found != shown.end() &&
        std::string_view(found->second.topic).starts_with(scoring::k_exempt_topic_prefix) &&
        limits.task_type != "email") {
      continue;
    }
    const std::optional<std::string> bytes = snapshot.read(hit.path);
    if (!bytes) {
      continue;
    }
    const std::int64_t tokens = token_count(split_frontmatter(*bytes).body(*bytes));
    if (memory_tokens + tokens > limits.memory_tokens) {
      continue;  // too large for what is left; a smaller one may still fit
    }
    memory_tokens += tokens;
    context.memories.push_back({hit.id, hit.path, hit.title, hit.score, tokens,
                                drop_final_newlines(without_history(*bytes))});
  }
  std::int64_t entry_tokens = 0;
  const double best_entry = entries.empty() ? 0.0 : entries.front().score;
  for (const search::Hit& hit : entries) {
    if (context.entries.size() >= limits.max_entries) {
      break;
    }
    if (hit.score < k_minimum_relative_score * best_entry) {
      break;
    }
    const std::int64_t tokens = count_words(hit.snippet) * 13 / 10;
    if (entry_tokens + tokens > limits.entry_tokens) {
      continue;
    }
    entry_tokens += tokens;
    context.entries.push_back(
        {hit.id, hit.path, hit.line, hit.tier, hit.title, hit.snippet, hit.score, tokens});
  }
  context.tokens = memory_tokens + entry_tokens;
  return context;
}

std::string render_ranked_context(const RankedContext& context) {
  if (context.empty()) {
    return {};
  }
  std::string out =
      "<memory-context>\nThe following memories from previous sessions may be relevant to this "
      "task.\n\n";
  for (const ContextMemory& memory : context.memories) {
    out += fmt::format("### {} (relevance: {:.2f})\n{}\n\n", memory.title, memory.relevance,
                       memory.text);
  }
  if (!context.entries.empty()) {
    out += "### Working memory\n";
    for (const ContextEntry& entry : context.entries) {
      out += fmt::format("- {} ({}:{}, {})\n", entry.text, entry.path, entry.line, entry.tier);
    }
    out += "\n";
  }
  out += "</memory-context>\n";
  return out;
}

}  // namespace gv::agent
