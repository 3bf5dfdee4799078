#include "core/recall/id_order.hpp"

#include <algorithm>
#include <tuple>

namespace gv::recall {
namespace {

constexpr std::size_t k_hex_digits = 10;
constexpr std::string_view k_hex = "0123456789abcdef";

// A tagged entry's id is `tr` and 10 lowercase hex digits (is_valid_id).
std::uint64_t key_of_id(std::string_view id) {
  std::uint64_t key = 0;
  for (const char c : id.substr(2)) {
    key = key * 16 + static_cast<std::uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
  }
  return key;
}

}  // namespace

std::vector<TaggedRef> tagged_by_id(const std::vector<ParsedFile>& files) {
  std::vector<TaggedRef> refs;
  for (std::size_t f = 0; f < files.size(); ++f) {
    const std::vector<Entry>& entries = files[f].entries;
    for (std::size_t e = 0; e < entries.size(); ++e) {
      if (entries[e].state == EntryState::tagged) {
        refs.push_back(TaggedRef{key_of_id(entries[e].id), f, e});
      }
    }
  }
  // (file, entry) is scan order, and unique: the order is total and the sort need not be stable.
  std::sort(refs.begin(), refs.end(), [](const TaggedRef& a, const TaggedRef& b) {
    return std::tie(a.key, a.file, a.entry) < std::tie(b.key, b.file, b.entry);
  });
  return refs;
}

std::array<char, 12> id_of_key(std::uint64_t key) {
  std::array<char, 12> id{'t', 'r'};
  for (std::size_t i = 0; i < k_hex_digits; ++i) {
    id[id.size() - 1 - i] = k_hex[key % 16];
    key /= 16;
  }
  return id;
}

std::vector<std::vector<const Record*>> records_by_entry(const std::vector<ParsedFile>& files,
                                                         const Metadata& metadata) {
  std::vector<std::vector<const Record*>> records(files.size());
  for (std::size_t f = 0; f < files.size(); ++f) {
    records[f].assign(files[f].entries.size(), nullptr);
  }
  auto next = metadata.begin();
  for (const TaggedRef& ref : tagged_by_id(files)) {
    const std::array<char, 12> id_text = id_of_key(ref.key);
    const std::string_view id = id_view(id_text);
    while (next != metadata.end() && std::string_view{next->first} < id) {
      ++next;
    }
    if (next != metadata.end() && next->first == id) {
      records[ref.file][ref.entry] = &next->second;  // a repeated id keeps `next` for its run
    }
  }
  return records;
}

}  // namespace gv::recall
