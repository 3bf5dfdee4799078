#include "core/gate/index_json.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "core/vault/index_files.hpp"

namespace gv {
namespace {

constexpr std::string_view k_open = "\"entries\": [\n";
constexpr std::string_view k_close = "\n  ]\n}\n";
constexpr std::string_view k_empty = "\"entries\": []\n}\n";
constexpr std::string_view k_count_zero = "\"entry_count\": 0,\n";
constexpr std::string_view k_tokens_zero = "\"total_tokens\": 0,\n";

// Replaces the one occurrence of `from` in `text`; false when it is not there exactly once.
bool replace_once(std::string& text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  if (at == std::string::npos || text.find(from, at + 1) != std::string::npos) {
    return false;
  }
  text.replace(at, from.size(), to);
  return true;
}

}  // namespace

std::optional<std::string> index_entry_text(const Memory& memory) {
  const std::string one = render_index_json({memory}, "");
  const auto open = one.find(k_open);
  if (open == std::string::npos || one.size() < open + k_open.size() + k_close.size() ||
      one.compare(one.size() - k_close.size(), k_close.size(), k_close) != 0) {
    return std::nullopt;
  }
  const std::size_t begin = open + k_open.size();
  return one.substr(begin, one.size() - k_close.size() - begin);
}

std::optional<std::string> assemble_index_json(const std::vector<Memory>& memories,
                                               const std::vector<std::string_view>& entry_texts,
                                               std::string_view generated_at) {
  if (memories.size() != entry_texts.size()) {
    return std::nullopt;
  }
  std::string frame = render_index_json({}, generated_at);
  if (memories.empty()) {
    return frame;
  }
  std::int64_t total_tokens = 0;
  std::size_t size = frame.size() + k_close.size();
  for (std::size_t i = 0; i < memories.size(); ++i) {
    total_tokens += memories[i].token_count;
    size += entry_texts[i].size() + 2;
  }
  if (!replace_once(frame, k_count_zero, fmt::format("\"entry_count\": {},\n", memories.size())) ||
      !replace_once(frame, k_tokens_zero, fmt::format("\"total_tokens\": {},\n", total_tokens)) ||
      frame.size() < k_empty.size() ||
      frame.compare(frame.size() - k_empty.size(), k_empty.size(), k_empty) != 0) {
    return std::nullopt;
  }
  frame.resize(frame.size() - k_empty.size());
  std::string out;
  out.reserve(size);
  out += frame;
  out += k_open;
  for (std::size_t i = 0; i < entry_texts.size(); ++i) {
    if (i > 0) {
      out += ",\n";
    }
    out += entry_texts[i];
  }
  out += k_close;
  return out;
}

}  // namespace gv
