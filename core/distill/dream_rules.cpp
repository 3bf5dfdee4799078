#include "core/distill/dream_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/dates.hpp"
#include "core/memory/lines.hpp"
#include "core/util/text.hpp"

namespace gv::distill {
namespace {

constexpr std::size_t k_theme_terms = 5;
constexpr std::size_t k_samples = 2;
constexpr std::size_t k_excerpt = 80;

struct ThemeCluster {
  std::vector<std::string> seed;
  std::vector<const events::Prompt*> prompts;
  std::vector<std::vector<std::string>> prompt_terms;
  std::set<std::string> sessions;
};

// The cluster's most frequent terms (ties: first seen).
std::vector<std::string> theme_terms(const ThemeCluster& cluster) {
  std::map<std::string, std::pair<std::size_t, std::size_t>> counts;  // term -> count, first
  std::size_t order = 0;
  for (const auto& terms : cluster.prompt_terms) {
    for (const std::string& term : terms) {
      auto [it, inserted] = counts.try_emplace(term, 0, order);
      order += inserted ? 1 : 0;
      ++it->second.first;
    }
  }
  std::vector<std::pair<std::string, std::pair<std::size_t, std::size_t>>> ranked(counts.begin(),
                                                                                  counts.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second.first != b.second.first ? a.second.first > b.second.first
                                            : a.second.second < b.second.second;
  });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ranked.size() && i < k_theme_terms; ++i) {
    out.push_back(ranked[i].first);
  }
  return out;
}

bool done_marker(std::string_view line) {
  const std::string lowered = util::to_lower_ascii(line);
  for (std::string_view marker : {"[x]", "[completed]", "[done]", "[abandoned]"}) {
    if (lowered.find(marker) != std::string::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<std::string> open_task_lines(std::string_view todo) {
  std::vector<std::string> lines;
  for (const TextLine& line : split_lines(todo)) {
    const std::string_view text = util::trim(line_text(todo, line));
    if (text.empty() || text.starts_with("# ") || done_marker(text)) {
      continue;
    }
    lines.emplace_back(text);
  }
  return lines;
}

DreamResult find_dream_themes(const std::vector<events::Prompt>& prompts,
                              const std::vector<Memory>& memories,
                              const std::vector<std::string>& open_tasks,
                              const TermScoring& terms) {
  DreamResult result;
  result.prompts_scanned = prompts.size();
  std::vector<ThemeCluster> clusters;
  for (const events::Prompt& prompt : prompts) {
    std::vector<std::string> prompt_terms = terms.key_terms(prompt.display);
    if (prompt_terms.empty()) {
      continue;
    }
    ThemeCluster* best = nullptr;
    double best_overlap = 0.0;
    for (ThemeCluster& cluster : clusters) {
      const double overlap = terms.overlap(prompt_terms, cluster.seed);
      if (overlaps(overlap) && overlap > best_overlap + 1e-9) {
        best = &cluster;
        best_overlap = overlap;
      }
    }
    if (best == nullptr) {
      clusters.push_back({prompt_terms, {}, {}, {}});
      best = &clusters.back();
    }
    best->prompts.push_back(&prompt);
    best->prompt_terms.push_back(std::move(prompt_terms));
    best->sessions.insert(prompt.session_id);
  }
  result.clusters = clusters.size();

  std::vector<const Memory*> active;
  for (const Memory& memory : memories) {
    if (memory.active()) {
      active.push_back(&memory);
    }
  }
  std::sort(active.begin(), active.end(),
            [](const Memory* a, const Memory* b) { return a->id < b->id; });
  std::vector<std::vector<std::string>> task_terms;
  for (const std::string& line : open_tasks) {
    task_terms.push_back(terms.key_terms(line));
  }

  for (const ThemeCluster& cluster : clusters) {
    if (cluster.sessions.size() < k_strikes) {
      continue;
    }
    DreamTheme theme;
    theme.terms = theme_terms(cluster);
    theme.summary = util::join(theme.terms, ", ");
    theme.prompts = cluster.prompts.size();
    theme.sessions = cluster.sessions.size();
    theme.rule = std::string(k_rule_dream_recurring);
    std::vector<const events::Prompt*> newest = cluster.prompts;
    std::stable_sort(newest.begin(), newest.end(),
                     [](const events::Prompt* a, const events::Prompt* b) {
                       return a->timestamp_ms > b->timestamp_ms;
                     });
    theme.latest_ms = newest.front()->timestamp_ms;
    for (const events::Prompt* prompt : newest) {
      if (theme.samples.size() < k_samples) {
        theme.samples.push_back(excerpt(prompt->display, k_excerpt));
      }
      theme.prompt_timestamps.push_back(format_instant(Instant{prompt->timestamp_ms / 1000}));
    }
    for (const Memory* memory : active) {
      if (overlaps(terms.overlap(theme.terms, memory->keywords))) {
        theme.covered_rule = std::string(k_rule_covered_by_memory);
        theme.covered_by = memory->id;
        break;
      }
    }
    for (std::size_t i = 0; theme.covered_by.empty() && i < open_tasks.size(); ++i) {
      if (overlaps(terms.overlap(theme.terms, task_terms[i]))) {
        theme.covered_rule = std::string(k_rule_covered_by_task);
        theme.covered_by = open_tasks[i];
      }
    }
    (theme.covered_by.empty() ? result.themes : result.covered).push_back(std::move(theme));
  }
  const auto order = [](const DreamTheme& a, const DreamTheme& b) {
    return a.sessions != b.sessions ? a.sessions > b.sessions : a.summary < b.summary;
  };
  std::sort(result.themes.begin(), result.themes.end(), order);
  std::sort(result.covered.begin(), result.covered.end(), order);
  return result;
}

}  // namespace gv::distill
