#include "core/git/index_tree.hpp"

#include <fmt/format.h>

#include <array>
#include <vector>

#include "core/git/blob_hasher.hpp"

namespace gv::git {
namespace {

using Entry = IndexFile::Entry;
using Id = std::array<unsigned char, 20>;

// One tree's entries: index order is tree order, since comparing full paths byte by byte puts
// `a.b` before `a/` before `a0` exactly as git's tree order (folders compared with a trailing
// slash) does.
class TreeHasher {
 public:
  explicit TreeHasher(std::span<const Entry> entries) : m_entries(entries) {}

  // The tree of the entries [begin, end), all under `prefix` (ending in `/`).
  std::optional<Id> tree(std::size_t begin, std::size_t end, std::string_view prefix) {
    // First the size (git hashes "tree <size>\0" before the entries), computing the subtrees'
    // ids on the way; then the entries.
    std::vector<Id> subtrees;
    std::size_t size = 0;
    bool ok = true;
    walk(begin, end, prefix,
         [&](std::string_view name, std::size_t first, std::size_t last, bool folder) {
           if (folder) {
             const std::string inner = std::string(prefix) + std::string(name) + "/";
             const std::optional<Id> id = tree(first, last, inner);
             ok = ok && id.has_value();
             subtrees.push_back(id.value_or(Id{}));
             size += 5 + 1 + name.size() + 1 + 20;  // "40000 <name>\0<id>"
           } else {
             const Entry& entry = m_entries[first];
             ok = ok && entry.stage == 0 && !entry.intent_to_add;
             size += fmt::formatted_size("{:o}", entry.mode()) + 1 + name.size() + 1 + 20;
           }
         });
    if (!ok || size == 0) {
      return std::nullopt;
    }
    BlobHasher hasher(size, "tree");
    std::size_t next_subtree = 0;
    walk(begin, end, prefix,
         [&](std::string_view name, std::size_t first, std::size_t, bool folder) {
           const std::string head = folder ? fmt::format("40000 {}", name)
                                           : fmt::format("{:o} {}", m_entries[first].mode(), name);
           hasher.update(std::string_view(head.c_str(), head.size() + 1));
           const unsigned char* id =
               folder ? subtrees[next_subtree++].data() : m_entries[first].oid();
           hasher.update(std::string_view(reinterpret_cast<const char*>(id), 20));
         });
    return hasher.finish_bytes();
  }

 private:
  // Calls visit(name, first, last, folder) for each child of `prefix` in order: a file is the
  // entry `first`; a folder is the entries [first, last).
  template <typename Visit>
  void walk(std::size_t begin, std::size_t end, std::string_view prefix, Visit visit) {
    std::size_t at = begin;
    while (at < end) {
      const std::string_view rest = m_entries[at].path().substr(prefix.size());
      const std::size_t slash = rest.find('/');
      if (slash == std::string_view::npos) {
        visit(rest, at, at + 1, false);
        ++at;
        continue;
      }
      const std::string_view name = rest.substr(0, slash);
      std::size_t last = at + 1;
      while (last < end && m_entries[last].path().size() > prefix.size() + slash &&
             m_entries[last].path().substr(prefix.size(), slash + 1) == rest.substr(0, slash + 1)) {
        ++last;
      }
      visit(name, at, last, true);
      at = last;
    }
  }

  std::span<const Entry> m_entries;
};

}  // namespace

std::optional<std::string> index_tree_id(std::span<const Entry> entries, std::string_view dir) {
  const std::string prefix = std::string(dir) + "/";
  std::size_t begin = 0;
  while (begin < entries.size() && entries[begin].path() < prefix) {
    ++begin;
  }
  std::size_t end = begin;
  while (end < entries.size() && entries[end].path().starts_with(prefix)) {
    ++end;
  }
  TreeHasher hasher(entries);
  const std::optional<Id> id = hasher.tree(begin, end, prefix);
  if (!id) {
    return std::nullopt;
  }
  std::string hex;
  hex.reserve(40);
  for (const unsigned char byte : *id) {
    hex += fmt::format("{:02x}", byte);
  }
  return hex;
}

}  // namespace gv::git
