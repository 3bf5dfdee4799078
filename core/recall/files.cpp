#include "core/recall/files.hpp"

#include <algorithm>

namespace gv::recall {
namespace {

constexpr std::string_view k_working_file = "CLAUDE.local.md";
constexpr std::string_view k_registers_dir = "memory/registers/";
constexpr std::string_view k_archive_dir = "memory/archive/";
constexpr std::string_view k_memory_prefix = "memory/";

bool has_dot_component(std::string_view path) {
  std::size_t start = 0;
  while (start <= path.size()) {
    if (start < path.size() && path[start] == '.') {
      return true;
    }
    const std::size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) {
      break;
    }
    start = slash + 1;
  }
  return false;
}

bool is_markdown_name(std::string_view path) {
  // `.md` alone is a dot-file, caught earlier; a name needs at least one byte before it.
  return path.size() > 3 && path.ends_with(".md") && path[path.size() - 4] != '/';
}

int scan_rank(Tier tier) {
  switch (tier) {
    case Tier::working:
      return 0;
    case Tier::register_:
      return 1;
    case Tier::archive:
      return 2;
  }
  return 3;
}

}  // namespace

std::string_view tier_name(Tier tier) {
  switch (tier) {
    case Tier::working:
      return "working";
    case Tier::register_:
      return "register";
    case Tier::archive:
      return "archive";
  }
  return "working";
}

std::optional<Tier> parse_tier_name(std::string_view name) {
  if (name == "working") {
    return Tier::working;
  }
  if (name == "register") {
    return Tier::register_;
  }
  if (name == "archive") {
    return Tier::archive;
  }
  return std::nullopt;
}

std::optional<Tier> tier_of(std::string_view relative_path) {
  if (relative_path == k_working_file) {
    return Tier::working;
  }
  if (has_dot_component(relative_path) || !is_markdown_name(relative_path)) {
    return std::nullopt;
  }
  if (relative_path.starts_with(k_registers_dir)) {
    const std::string_view rest = relative_path.substr(k_registers_dir.size());
    if (rest.find('/') == std::string_view::npos) {
      return Tier::register_;
    }
    return std::nullopt;
  }
  if (relative_path.starts_with(k_archive_dir)) {
    return Tier::archive;
  }
  return std::nullopt;
}

std::string display_path(std::string_view relative_path) {
  if (relative_path.starts_with(k_memory_prefix)) {
    relative_path.remove_prefix(k_memory_prefix.size());
  }
  return std::string{relative_path};
}

std::vector<ManagedFile> list_managed_files(const Snapshot& snapshot, std::string_view root) {
  std::vector<ManagedFile> files;
  // CLAUDE.local.md is one known path: reading it avoids listing the whole repository, which
  // is what a prefix without a directory part would ask of a work-tree snapshot.
  const std::string working_path = std::string{root} + std::string{k_working_file};
  if (snapshot.read(working_path)) {
    files.push_back(ManagedFile{working_path, std::string{k_working_file}, Tier::working});
  }
  for (const std::string_view prefix : {k_registers_dir, k_archive_dir}) {
    for (const SnapshotEntry& entry : snapshot.list(std::string{root} + std::string{prefix})) {
      if (!entry.path.starts_with(root)) {
        continue;
      }
      const std::string_view relative = std::string_view{entry.path}.substr(root.size());
      const std::optional<Tier> tier = tier_of(relative);
      if (!tier) {
        continue;
      }
      files.push_back(ManagedFile{entry.path, display_path(relative), *tier});
    }
  }
  // Registers sort by file name and archive by relative path; within one directory prefix both
  // equal sorting by the full path's bytes.
  std::stable_sort(files.begin(), files.end(), [](const ManagedFile& a, const ManagedFile& b) {
    const int rank_a = scan_rank(a.tier);
    const int rank_b = scan_rank(b.tier);
    if (rank_a != rank_b) {
      return rank_a < rank_b;
    }
    return a.path < b.path;
  });
  return files;
}

}  // namespace gv::recall
