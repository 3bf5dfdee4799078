#pragma once

// Small in-memory vault states for the review tests.

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>

#include "core/git/repo.hpp"
#include "core/snapshot/snapshot.hpp"

namespace gv::test {

// A Snapshot over literal files, with real blob ids, that counts reads per path (the gate
// tests have their own MapSnapshot; one class per name across the test binary).
class ReviewSnapshot final : public Snapshot {
 public:
  explicit ReviewSnapshot(std::map<std::string, std::string> files) : m_files(std::move(files)) {}
  // Lets `ReviewSnapshot({{path, bytes}})` name one file without clashing with the copy
  // constructor.
  ReviewSnapshot(std::initializer_list<std::pair<const std::string, std::string>> files)
      : m_files(files) {}

  [[nodiscard]] std::vector<SnapshotEntry> list(std::string_view prefix) const override {
    std::vector<SnapshotEntry> out;
    for (const auto& [path, bytes] : m_files) {
      if (path.starts_with(prefix)) {
        out.push_back({path, git::hash_blob(bytes)});
      }
    }
    return out;
  }
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override {
    const auto it = m_files.find(std::string(path));
    if (it == m_files.end()) {
      return std::nullopt;
    }
    ++reads[it->first];
    return it->second;
  }
  [[nodiscard]] std::string describe() const override { return "map"; }

  mutable std::map<std::string, int> reads;

 private:
  std::map<std::string, std::string> m_files;
};

inline std::string memory_path_of(std::string_view id) {
  return ".memory/10-Memories/" + std::string(id) + ".md";
}

// A memory whose body is `# <title>` plus `words` filler words: (words + 2) * 1.3 tokens,
// floored. `fields` go after the standard ones.
inline std::string memory_text(std::string_view title, std::string_view fields = {}, int words = 10,
                               std::string_view keywords = "[a, b]", std::string_view tail = {}) {
  std::string body;
  for (int i = 0; i < words; ++i) {
    body += "w" + std::to_string(i) + (i + 1 == words ? "\n" : " ");
  }
  return "---\ntitle: \"" + std::string(title) +
         "\"\ncreated: 2026-01-01\ntags: [PATTERN]\ntopic: \"tests/review\"\nkeywords: " +
         std::string(keywords) + "\nsummary: \"\"\nretrieval_count: 0\nlast_retrieved: null\n" +
         std::string(fields) + "---\n\n# " + std::string(title) + "\n\n" + body + std::string(tail);
}

}  // namespace gv::test
