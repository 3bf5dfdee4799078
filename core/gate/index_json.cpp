#include "core/gate/index_json.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "core/git/blob_hasher.hpp"
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

namespace {

// The assembled file as pieces: `head`, then (unless there are no entries) the entry texts
// joined by ",\n", then k_close. `size` is the whole file's.
struct Pieces {
  std::string head;
  bool has_entries = false;
  std::size_t size = 0;
};

std::optional<Pieces> pieces_of(const std::vector<IndexRow>& rows,
                                const std::vector<std::string_view>& entry_texts,
                                std::string_view generated_at) {
  if (rows.size() != entry_texts.size()) {
    return std::nullopt;
  }
  Pieces pieces;
  pieces.head = render_index_json({}, generated_at);
  if (rows.empty()) {
    pieces.size = pieces.head.size();
    return pieces;
  }
  std::int64_t total_tokens = 0;
  std::size_t texts_size = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    total_tokens += rows[i].token_count;
    texts_size += entry_texts[i].size();
  }
  std::string& frame = pieces.head;
  if (!replace_once(frame, k_count_zero, fmt::format("\"entry_count\": {},\n", rows.size())) ||
      !replace_once(frame, k_tokens_zero, fmt::format("\"total_tokens\": {},\n", total_tokens)) ||
      frame.size() < k_empty.size() ||
      frame.compare(frame.size() - k_empty.size(), k_empty.size(), k_empty) != 0) {
    return std::nullopt;
  }
  frame.resize(frame.size() - k_empty.size());
  frame += k_open;
  pieces.has_entries = true;
  pieces.size = frame.size() + texts_size + 2 * (rows.size() - 1) + k_close.size();
  return pieces;
}

template <typename Sink>
void emit(const Pieces& pieces, const std::vector<std::string_view>& entry_texts, Sink&& sink) {
  sink(std::string_view(pieces.head));
  if (!pieces.has_entries) {
    return;
  }
  for (std::size_t i = 0; i < entry_texts.size(); ++i) {
    if (i > 0) {
      sink(std::string_view(",\n"));
    }
    sink(entry_texts[i]);
  }
  sink(k_close);
}

}  // namespace

std::optional<std::string> assemble_index_json(const std::vector<IndexRow>& rows,
                                               const std::vector<std::string_view>& entry_texts,
                                               std::string_view generated_at) {
  const std::optional<Pieces> pieces = pieces_of(rows, entry_texts, generated_at);
  if (!pieces) {
    return std::nullopt;
  }
  std::string out;
  out.reserve(pieces->size);
  emit(*pieces, entry_texts, [&](std::string_view piece) { out += piece; });
  return out;
}

std::optional<std::string> assembled_index_json_oid(
    const std::vector<IndexRow>& rows, const std::vector<std::string_view>& entry_texts,
    std::string_view generated_at) {
  const std::optional<Pieces> pieces = pieces_of(rows, entry_texts, generated_at);
  if (!pieces) {
    return std::nullopt;
  }
  git::BlobHasher hasher(pieces->size);
  emit(*pieces, entry_texts, [&](std::string_view piece) { hasher.update(piece); });
  return hasher.finish();
}

}  // namespace gv
