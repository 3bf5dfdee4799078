#include "core/agent/context.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/memory/body.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/stop_words.hpp"
#include "core/memory/tokens.hpp"
#include "core/recall/entry.hpp"
#include "core/recall/files.hpp"
#include "core/scoring/score.hpp"
#include "core/snapshot/snapshot.hpp"

namespace gv::agent {
namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  }
  return out;
}

}  // namespace

std::vector<std::string> context_keywords(std::string_view text) {
  std::set<std::string> unique;
  std::string word;
  auto flush = [&] {
    if (word.size() > 3 && !is_stop_word(word)) {
      unique.insert(word);
    }
    word.clear();
  };
  for (const char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      word += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    } else {
      flush();
    }
  }
  flush();
  std::vector<std::string> keywords(unique.begin(), unique.end());
  if (keywords.size() > k_context_max_keywords) {
    keywords.resize(k_context_max_keywords);
  }
  return keywords;
}

ContextSelection select_context(const std::vector<Memory>& memories, std::string_view task,
                                std::string_view task_type, std::int64_t token_budget,
                                std::size_t max_entries) {
  ContextSelection selection;
  selection.keywords = context_keywords(task);
  const std::string type_upper = upper(task_type);
  // How often each task keyword was given: a memory scores that many for a key it has.
  std::map<std::string, std::int64_t, std::less<>> wanted;
  for (const std::string& keyword : selection.keywords) {
    ++wanted[keyword];
  }
  std::vector<ContextPick> scored;
  std::vector<std::string_view> matched;  // the memory's keys already counted
  for (const Memory& memory : memories) {
    if (!memory.active()) {
      continue;
    }
    if (std::string_view(memory.topic).starts_with(scoring::k_exempt_topic_prefix) &&
        task_type != "email") {
      continue;
    }
    // The task keywords found among the memory's distinct keyword keys, without building a
    // set of keys for each of a hundred thousand memories.
    std::int64_t score = 0;
    matched.clear();
    for (const std::string& keyword : memory.keywords) {
      const std::string key = keyword_key(keyword);
      const auto found = wanted.find(key);
      if (found != wanted.end() &&
          std::find(matched.begin(), matched.end(), found->first) == matched.end()) {
        matched.push_back(found->first);
        score += found->second;
      }
    }
    if (!task_type.empty() && memory.topic == task_type) {
      score += 2;
    } else if (!task_type.empty() && category_key(memory) == type_upper) {
      score += 1;
    }
    if (score >= 1) {
      scored.push_back({&memory, score});
    }
  }
  // The original sorts index entries (in id order) by score with a stable sort.
  std::stable_sort(scored.begin(), scored.end(), [](const ContextPick& a, const ContextPick& b) {
    if (a.score != b.score) {
      return a.score > b.score;
    }
    return a.memory->id < b.memory->id;
  });
  for (const ContextPick& pick : scored) {
    if (selection.picked.size() >= max_entries) {
      break;
    }
    if (selection.tokens + pick.memory->token_count > token_budget) {
      continue;
    }
    selection.tokens += pick.memory->token_count;
    selection.picked.push_back(pick);
  }
  return selection;
}

std::string without_history(std::string_view file) {
  const FrontmatterSplit split = split_frontmatter(file);
  const std::string_view body = split.body(file);
  const BodySections sections = locate_sections(body);
  if (!sections.history) {
    return std::string(file);
  }
  const std::size_t begin = split.body_begin + sections.history->begin;
  const std::size_t end = split.body_begin + sections.history->end;
  return std::string(file.substr(0, begin)) + std::string(file.substr(end));
}

std::string render_context_block(
    const ContextSelection& selection,
    const std::function<std::optional<std::string>(const Memory&)>& read) {
  std::string out =
      "<memory-context>\nThe following memories from previous sessions may be relevant to this "
      "task.\n\n";
  for (const ContextPick& pick : selection.picked) {
    std::optional<std::string> bytes = read(*pick.memory);
    if (!bytes) {
      continue;
    }
    *bytes = without_history(*bytes);
    // The original reads the file through a command substitution, which drops its final
    // newlines; the blank line after each memory comes from the format.
    while (!bytes->empty() && bytes->back() == '\n') {
      bytes->pop_back();
    }
    out += fmt::format("### {} (relevance: {})\n{}\n\n", pick.memory->title, pick.score, *bytes);
  }
  out += "</memory-context>\n";
  return out;
}

}  // namespace gv::agent
