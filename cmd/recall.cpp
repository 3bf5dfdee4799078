#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <system_error>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/recall/gate.hpp"
#include "core/recall/ids.hpp"
#include "core/recall/metadata.hpp"
#include "core/recall/scan.hpp"
#include "core/snapshot/snapshot.hpp"

namespace gv::cmd {
namespace {

namespace fs = std::filesystem;

struct InitIdsOptions {
  bool dry_run = false;
};

// ---------------------------------------------------------------------------------------------
// Work-tree access. gv::WorktreeSnapshot (core/snapshot/worktree_snapshot.hpp), the repository
// layer's root discovery and gv::resolve_clock (core/dates.hpp) are not on this branch yet; the
// three helpers below stand in for them with the same behaviour this command relies on. When
// they land, replace DirectorySnapshot with WorktreeSnapshot, find_project_root with the repo's
// work-tree root, and current_instant with resolve_clock(globals.today, globals.now).now.
// ---------------------------------------------------------------------------------------------

// Regular files under `root`; symlinks are never followed, so nothing outside the tree is read.
class DirectorySnapshot final : public Snapshot {
 public:
  explicit DirectorySnapshot(fs::path root) : m_root(std::move(root)) {}

  [[nodiscard]] std::vector<SnapshotEntry> list(std::string_view prefix) const override {
    std::vector<SnapshotEntry> entries;
    const std::size_t slash = prefix.rfind('/');
    const fs::path dir = m_root / std::string{slash == std::string_view::npos ? "" : prefix.substr(0, slash)};
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(dir, ec))) {
      return entries;
    }
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (it->is_symlink(ec) || !it->is_regular_file(ec)) {
        continue;
      }
      std::string relative = fs::relative(it->path(), m_root, ec).generic_string();
      if (relative.starts_with(prefix) && relative.find(".git/") != 0) {
        entries.push_back(SnapshotEntry{std::move(relative), {}});
      }
    }
    std::sort(entries.begin(), entries.end(),
              [](const SnapshotEntry& a, const SnapshotEntry& b) { return a.path < b.path; });
    return entries;
  }

  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override {
    const fs::path full = m_root / std::string{path};
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(full, ec))) {
      return std::nullopt;
    }
    std::ifstream in(full, std::ios::binary);
    if (!in) {
      throw Error("{}: cannot read", path);
    }
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
  }

  [[nodiscard]] std::string describe() const override { return "work tree"; }

 private:
  fs::path m_root;
};

fs::path find_project_root() {
  const fs::path start = fs::current_path();
  for (fs::path dir = start;; dir = dir.parent_path()) {
    std::error_code ec;
    if (fs::exists(dir / ".git", ec)) {
      return dir;
    }
    if (dir == dir.parent_path()) {
      return start;
    }
  }
}

std::string current_instant(const Globals& globals) {
  if (globals.now) {
    return *globals.now;
  }
  if (const char* env = std::getenv("GIT_VAULT_NOW"); env != nullptr && *env != '\0') {
    return env;
  }
  const auto now = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::chrono::system_clock::to_time_t(now)));
}

// ---------------------------------------------------------------------------------------------

struct PendingWrite {
  std::string path;  // repo-relative
  std::string bytes;
};

// All files are written to temporaries first and renamed only when every write succeeded, so a
// failure (disk full, permissions) leaves the work tree as it was.
void write_all_atomically(const fs::path& root, const std::vector<PendingWrite>& writes) {
  std::vector<std::pair<fs::path, fs::path>> staged;  // temp -> target
  const auto discard = [&staged] {
    for (const auto& [temp, target] : staged) {
      std::error_code ignored;
      fs::remove(temp, ignored);
    }
  };
  try {
    for (const PendingWrite& write : writes) {
      const fs::path target = root / write.path;
      std::error_code ec;
      fs::create_directories(target.parent_path(), ec);
      if (ec) {
        throw Error("{}: cannot create directory: {}", write.path, ec.message());
      }
      fs::path temp = target;
      temp += ".git-vault-tmp";
      staged.emplace_back(temp, target);
      {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out.write(write.bytes.data(), static_cast<std::streamsize>(write.bytes.size()));
        out.close();
        if (!out) {
          throw Error("{}: cannot write", write.path);
        }
      }
      if (fs::exists(target, ec)) {
        fs::permissions(temp, fs::status(target, ec).permissions(), ec);
      }
    }
    for (const auto& [temp, target] : staged) {
      std::error_code ec;
      fs::rename(temp, target, ec);
      if (ec) {
        throw Error("{}: cannot replace: {}", fs::relative(target, root).generic_string(), ec.message());
      }
    }
  } catch (...) {
    discard();
    throw;
  }
}

std::string underline(std::string_view header) {
  // Code points, not bytes: the header holds a multi-byte dash.
  std::size_t width = 0;
  for (const char c : header) {
    if ((static_cast<unsigned char>(c) & 0xC0u) != 0x80u) {
      ++width;
    }
  }
  std::string line;
  for (std::size_t i = 0; i < width; ++i) {
    line += "━";
  }
  return line;
}

std::string render_preview(const recall::InitIdsPlan& plan) {
  const std::string header = "recall-init-ids — preview";
  std::string out = header + "\n" + underline(header) + "\n\n";
  const int will_tag = static_cast<int>(plan.tagged.size());
  out += fmt::format("Files scanned: {}\n", plan.files_scanned);
  out += fmt::format("Entries found: {} total\n", plan.already_tagged + will_tag + plan.malformed);
  out += fmt::format("  Already tagged: {}\n", plan.already_tagged);
  out += fmt::format("  Will be tagged: {}\n", will_tag);
  out += fmt::format("  Skipped (malformed): {}\n", plan.malformed);
  const std::vector<recall::TaggedLine> examples = recall::preview_examples(plan);
  if (!examples.empty()) {
    out += "\nExamples:\n";
    for (const recall::TaggedLine& example : examples) {
      out += fmt::format("\n  {}:\n    Before: {}\n    After:  {}\n", example.display_path,
                         example.before, example.after);
    }
  }
  return out;
}

std::string render_summary(const recall::InitIdsPlan& plan, std::size_t metadata_total) {
  const std::string header = "recall-init-ids — complete";
  std::string out = header + "\n" + underline(header) + "\n\n";
  out += fmt::format("Tagged: {} entries across {} files\n", plan.tagged.size(), plan.rewrites.size());
  out += fmt::format("Metadata: {} entries in {}\n", metadata_total, recall::k_metadata_path);
  if (!plan.rewrites.empty()) {
    std::size_t width = 0;
    for (const recall::FileRewrite& rewrite : plan.rewrites) {
      width = std::max(width, rewrite.display_path.size());
    }
    out += "\nFiles modified:\n";
    for (const recall::FileRewrite& rewrite : plan.rewrites) {
      out += fmt::format("  {:<{}}{} entries tagged\n", rewrite.display_path, width + 1, rewrite.tagged);
    }
  }
  out += "\nYou can now run git vault recall maintain for pressure-based memory cleanup.\n";
  return out;
}

void print_warning(const Finding& finding) {
  const std::string where =
      finding.line ? fmt::format("{}:{}: ", finding.path, *finding.line) : fmt::format("{}: ", finding.path);
  std::fputs(fmt::format("git-vault: warning: {}{}\n", where, finding.message).c_str(), stderr);
}

nlohmann::json to_json(const recall::InitIdsPlan& plan, bool dry_run, int metadata_added,
                       const std::vector<Finding>& warnings) {
  nlohmann::json tagged = nlohmann::json::array();
  for (const recall::TaggedLine& line : plan.tagged) {
    tagged.push_back({{"path", line.path}, {"line", line.line}, {"id", line.id}});
  }
  nlohmann::json files = nlohmann::json::array();
  for (const recall::FileRewrite& rewrite : plan.rewrites) {
    files.push_back({{"path", rewrite.path}, {"tagged", rewrite.tagged}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& finding : warnings) {
    nlohmann::json item{{"check", finding.check},
                        {"severity", finding.severity == Severity::error ? "error" : "warning"},
                        {"path", finding.path},
                        {"message", finding.message}};
    item["line"] = finding.line ? nlohmann::json(*finding.line) : nlohmann::json(nullptr);
    findings.push_back(std::move(item));
  }
  return nlohmann::json{{"schema", 1},
                        {"dry_run", dry_run},
                        {"files_scanned", plan.files_scanned},
                        {"already_tagged", plan.already_tagged},
                        {"malformed", plan.malformed},
                        {"tagged", std::move(tagged)},
                        {"files_modified", std::move(files)},
                        {"metadata_added", metadata_added},
                        {"findings", std::move(findings)}};
}

int run_init_ids(const InitIdsOptions& options, const Globals& globals) {
  const fs::path root = find_project_root();
  const DirectorySnapshot snapshot(root);
  const std::string now = current_instant(globals);

  // Metadata is read before anything is planned: invalid JSON stops the run with nothing written.
  recall::Metadata metadata;
  std::vector<Finding> warnings;
  const std::optional<std::string> metadata_bytes = snapshot.read(recall::k_metadata_path);
  if (metadata_bytes) {
    recall::MetadataRead read = recall::parse_metadata(*metadata_bytes, recall::k_metadata_path);
    metadata = std::move(read.records);
    warnings = std::move(read.findings);
  }

  const std::vector<recall::ParsedFile> files = recall::scan_managed_files(snapshot);
  const recall::InitIdsPlan plan =
      recall::plan_init_ids(files, recall::metadata_ids(metadata), recall::system_random_source());
  warnings.insert(warnings.end(), plan.findings.begin(), plan.findings.end());
  // The backfill also runs when nothing is untagged: ids written by hand still get records.
  const int metadata_added = recall::add_missing_records(metadata, plan.inline_ids, now);

  if (!options.dry_run) {
    std::vector<PendingWrite> writes;
    for (const recall::FileRewrite& rewrite : plan.rewrites) {
      writes.push_back({rewrite.path, rewrite.bytes});
    }
    // Files first, metadata last: a failure in between leaves ids without records, which the
    // next run backfills, never records pointing at nothing new.
    if (metadata_added > 0) {
      writes.push_back({std::string{recall::k_metadata_path}, recall::serialize_metadata(metadata)});
    }
    write_all_atomically(root, writes);
  }

  if (globals.json) {
    std::fputs((to_json(plan, options.dry_run, metadata_added, warnings).dump() + "\n").c_str(), stdout);
    return exit_code::k_ok;
  }
  for (const Finding& finding : warnings) {
    print_warning(finding);
  }
  if (options.dry_run) {
    std::string out = plan.tagged.empty()
                          ? fmt::format("All {} entries already have IDs. Nothing to do.\n", plan.already_tagged)
                          : render_preview(plan);
    if (metadata_added > 0) {
      out += fmt::format("Metadata: would add {}\n", metadata_added);
    }
    std::fputs(out.c_str(), stdout);
    return exit_code::k_ok;
  }
  if (globals.verbose) {
    for (const recall::TaggedLine& line : plan.tagged) {
      std::fputs(fmt::format("tagged {}:{} ^{}\n", line.path, line.line, line.id).c_str(), stderr);
    }
    std::string out = plan.tagged.empty()
                          ? fmt::format("All {} entries already have IDs. Nothing to do.\n", plan.already_tagged)
                          : render_summary(plan, metadata.size());
    if (metadata_added > 0) {
      out += fmt::format("Metadata: added {}\n", metadata_added);
    }
    std::fputs(out.c_str(), stderr);
  }
  return exit_code::k_ok;
}

}  // namespace

Runner define_recall(CLI::App& app) {
  app.require_subcommand(1);
  auto init_options = std::make_shared<InitIdsOptions>();
  CLI::App* init_ids = app.add_subcommand("init-ids", "Give every untagged working-memory entry a ^tr id");
  init_ids->fallthrough();
  init_ids->add_flag("--dry-run", init_options->dry_run, "Show what would be tagged; write nothing");

  return [init_ids, init_options](const Globals& globals) -> int {
    if (init_ids->parsed()) {
      return run_init_ids(*init_options, globals);
    }
    throw UsageError("recall: unknown subcommand");
  };
}

}  // namespace gv::cmd
