// git vault migrate: converts memories written in the vault's older layouts (no frontmatter,
// `**Category**: [PATTERN]` lines; the early skeleton's `date` / `last_updated` fields) to the
// current one, as one commit (doc/vault-format.md, "Older layouts").
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cmd/command.hpp"
#include "core/dates.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/git/transaction.hpp"
#include "core/landing/land.hpp"
#include "core/memory/legacy.hpp"
#include "core/memory/parse.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/json_output.hpp"
#include "core/util/row_limit.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::cmd {
namespace migrate_command {

struct Options {
  bool dry_run = false;
  bool no_commit = false;
  bool allow_dirty = false;
};

// The history walk that dates a memory naming no date stops here: enough for any vault that
// grew by hand, and a bound on the cost in a repository with a long history.
constexpr std::size_t k_history_commits = 20000;

struct FileResult {
  std::string path;
  std::string id;
  legacy::Conversion conversion;
};

std::string_view layout_name(legacy::Layout layout) {
  switch (layout) {
    case legacy::Layout::bold_fields:
      return "no-frontmatter";
    case legacy::Layout::old_fields:
      return "old-fields";
    case legacy::Layout::unreadable:
      return "unreadable";
    case legacy::Layout::current:
      break;
  }
  return "current";
}

std::string subject_for(std::size_t converted) {
  return fmt::format("vault(migrate): convert {} to the current layout",
                     util::plural(converted, "memory", "memories"));
}

int run(const Options& options, Session& session) {
  git::Repo& repo = session.repo();
  std::optional<git::ReadState> read_state;
  if (!options.dry_run) {
    read_state = git::capture_read_state(repo, {std::string(vault_path::k_root)});
  }
  const WorktreeSnapshot snapshot(repo.workdir());
  const std::string today = format_date(session.clock().today);

  std::vector<SnapshotEntry> entries = snapshot.list(vault_path::k_memories);
  std::vector<std::string> paths;
  for (const SnapshotEntry& entry : entries) {
    if (is_memory_path(entry.path)) {
      paths.push_back(entry.path);
    }
  }
  // Dated lazily: the history is walked once, and only when some file names no date.
  std::optional<std::map<std::string, std::int64_t>> first_seen;
  auto fallback_for = [&](const std::string& path) {
    return [&, path] {
      if (!first_seen) {
        first_seen = repo.first_seen_times(paths, k_history_commits);
      }
      const auto found = first_seen->find(path);
      if (found == first_seen->end()) {
        return today;
      }
      return format_date(date_of(Instant{found->second}));
    };
  };

  std::vector<FileResult> converted;
  std::vector<FileResult> unreadable;
  Plan plan;
  for (const std::string& path : paths) {
    const std::optional<std::string> bytes = snapshot.read(path);
    if (!bytes) {
      continue;
    }
    FileResult result{path, memory_id_from_path(path),
                      legacy::convert(path, *bytes, fallback_for(path))};
    if (result.conversion.layout == legacy::Layout::unreadable) {
      unreadable.push_back(std::move(result));
    } else if (result.conversion.layout != legacy::Layout::current) {
      plan.write(path, result.conversion.bytes);
      plan.memories.push_back(result.id);
      plan.body += fmt::format("{}: {}\n", result.id, util::join(result.conversion.changes, "; "));
      converted.push_back(std::move(result));
    }
  }

  landing::Landed landed;
  if (!options.dry_run && !converted.empty()) {
    plan.subject = subject_for(converted.size());
    plan.action = "migrate";
    landing::Context context;
    context.clock = session.clock();
    context.cache = session.parse_cache();
    landing::Target target;
    target.commit = !options.no_commit;
    target.allow_dirty = options.allow_dirty;
    target.guarded_paths = {std::string(vault_path::k_root)};
    target.read_state = std::move(read_state);
    landed = landing::land(
        repo, snapshot, landing::IndexRegeneration{std::move(plan), /*keep_unreadable_out=*/true},
        context, target);
  }

  const OutputSettings& output = session.output();
  if (output.json) {
    nlohmann::ordered_json memories = nlohmann::ordered_json::array();
    for (const FileResult& result : converted) {
      memories.push_back({{"id", result.id},
                          {"path", result.path},
                          {"layout", layout_name(result.conversion.layout)},
                          {"changes", result.conversion.changes},
                          {"created_guessed", result.conversion.created_from_fallback}});
    }
    nlohmann::ordered_json problems = nlohmann::ordered_json::array();
    for (const FileResult& result : unreadable) {
      problems.push_back({{"id", result.id},
                          {"path", result.path},
                          {"problem", result.conversion.problem},
                          {"fix", result.conversion.fix}});
    }
    util::print_json(nlohmann::ordered_json{
        {"schema", 1},
        {"dry_run", options.dry_run},
        {"memories", std::move(memories)},
        {"unreadable", std::move(problems)},
        {"commit", landed.commit ? nlohmann::ordered_json(*landed.commit) : nullptr}});
    return unreadable.empty() ? exit_code::k_ok : exit_code::k_no;
  }

  std::string out;
  util::RowLimit rows(output.limit);
  for (const FileResult& result : converted) {
    if (rows.next()) {
      out += fmt::format("{}: {}\n", result.path, util::join(result.conversion.changes, "; "));
    }
  }
  out += rows.rest_line();
  util::RowLimit problem_rows(output.limit);
  for (const FileResult& result : unreadable) {
    if (problem_rows.next()) {
      out += fmt::format("{}\n  fix: {}\n", result.conversion.problem, result.conversion.fix);
    }
  }
  out += problem_rows.rest_line();
  std::fputs(out.c_str(), stdout);

  if (!output.quiet) {
    std::string said;
    const std::size_t dated = static_cast<std::size_t>(
        std::count_if(converted.begin(), converted.end(),
                      [](const auto& r) { return r.conversion.created_from_fallback; }));
    if (converted.empty()) {
      said = paths.empty()
                 ? "Nothing to migrate: there are no memory files in .memory/10-Memories/.\n"
             : unreadable.empty() ? "Nothing to migrate: every memory is in the current layout.\n"
                                  : "Nothing migrate can convert; the files above need an edit.\n";
    } else if (options.dry_run) {
      // The command to run next must work as printed: a vault with uncommitted files (the ones
      // `init` just wrote, say) is refused without --allow-dirty.
      const std::vector<std::string> dirty = repo.dirty_paths({std::string(vault_path::k_root)});
      said = fmt::format(
          "{} to convert (dry run: nothing written). `git vault migrate{}` converts {} and "
          "regenerates the index files, as one commit{}.\n",
          util::plural(converted.size(), "memory", "memories"),
          dirty.empty() ? "" : " --allow-dirty", converted.size() == 1 ? "it" : "them",
          dirty.empty() ? std::string()
                        : fmt::format("; --allow-dirty, since {} under .memory/ {} uncommitted",
                                      util::plural(dirty.size(), "file", "files"),
                                      dirty.size() == 1 ? "is" : "are"));
    } else if (landed.commit) {
      said = fmt::format("[{} {}] {}\nUndo with: git revert {}\n", repo.head_branch(),
                         landed.commit->substr(0, 7), landed.plan.subject,
                         landed.commit->substr(0, 12));
    } else {
      said = fmt::format(
          "Wrote {} to the work tree, not committed. Review with `git diff`, then commit them.\n",
          util::plural(landed.plan.changes.size(), "file", "files"));
    }
    if (dated > 0) {
      said += fmt::format(
          "{} named no date: created is the day the file first appears in the history "
          "(today when it never does); check it in the diff.\n",
          util::plural(dated, "memory", "memories"));
    }
    std::fputs(said.c_str(), stderr);
  }
  return unreadable.empty() ? exit_code::k_ok : exit_code::k_no;
}

}  // namespace migrate_command

Runner define_migrate(CLI::App& app) {
  using namespace migrate_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_flag("--dry-run", options->dry_run, "Show what would be converted; write nothing");
  app.add_flag("--no-commit", options->no_commit,
               "Leave the converted files in the work tree instead of committing them");
  app.add_flag("--allow-dirty", options->allow_dirty,
               "Run although files under .memory/ have uncommitted changes (they go in)");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
