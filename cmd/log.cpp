#include "core/distill/log.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "core/distill/log_resolve.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/landing/revert_search.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/json_output.hpp"
#include "core/util/text.hpp"

namespace gv::cmd {
namespace log_command {

using Json = nlohmann::ordered_json;

struct Options {
  bool verify = false;
};

constexpr std::size_t k_notes_width = 60;

// Notes on one line: whitespace runs (newlines included) become one space, long notes end in
// `...`.
std::string one_line(const std::string& text) {
  std::string line;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    if (space) {
      if (!line.empty() && line.back() != ' ') {
        line += ' ';
      }
    } else {
      line += c;
    }
  }
  while (!line.empty() && line.back() == ' ') {
    line.pop_back();
  }
  if (line.size() > k_notes_width) {
    line = line.substr(0, k_notes_width - 3) + "...";
  }
  return line;
}

std::size_t affected_count(const Json& raw) {
  const auto it = raw.find("affected_memories");
  return it != raw.end() && it->is_array() ? it->size() : 0;
}

Json entry_json(const distill::ResolvedEntry& entry, bool verify) {
  const Json& raw = entry.operation.raw;
  Json out{{"id", entry.operation.id},
           {"type", entry.operation.type},
           {"timestamp", entry.operation.timestamp},
           {"commit", entry.commit ? Json(*entry.commit) : Json(nullptr)},
           {"affected_memories",
            raw.contains("affected_memories") ? raw["affected_memories"] : Json::array()}};
  // The rest of the entry as the log holds it; its own `commit` (filled in later, D7) is
  // `logged_commit` here because `commit` is the one history says.
  for (const auto& [key, value] : raw.items()) {
    if (key == "commit") {
      out["logged_commit"] = value;
    } else if (!out.contains(key)) {
      out[key] = value;
    }
  }
  if (verify) {
    out["legacy"] = entry.legacy;
    out["problems"] = entry.problems;
  }
  return out;
}

// A working-memory maintenance commit: it keeps no distill log, so history is its log.
struct RecallCommit {
  std::string id;  // its Vault-Log-Id (recall_<seconds>), else the commit's short id
  std::string type;
  std::string timestamp;
  git::CommitInfo commit;
};

// The recall commits in HEAD's history and the commits reverting them, oldest first.
std::vector<RecallCommit> recall_commits(const git::Repo& repo) {
  std::vector<RecallCommit> out;
  if (!repo.head_commit()) {
    return out;
  }
  const auto by_action = repo.trailer_index(k_trailer_action);
  for (const std::string_view type :
       {std::string_view("recall-maintain"), std::string_view("recall-doctor"),
        landing::k_recall_revert_action}) {
    const auto found = by_action.find(std::string(type));
    if (found == by_action.end()) {
      continue;
    }
    for (const std::string& id : found->second) {
      git::CommitInfo info = repo.commit_info(id);
      RecallCommit& commit = out.emplace_back();
      commit.id =
          find_trailer(info.trailers, k_trailer_log_id).value_or(landing::short_id(info.id));
      commit.type = std::string(type);
      commit.timestamp = format_instant(Instant{info.time});
      commit.commit = std::move(info);
    }
  }
  std::sort(out.begin(), out.end(), [](const RecallCommit& a, const RecallCommit& b) {
    return a.commit.time != b.commit.time ? a.commit.time < b.commit.time : a.id < b.id;
  });
  return out;
}

std::string recall_line(const RecallCommit& commit) {
  return fmt::format("{}  {}  {}  {}  {}", commit.id, commit.type, commit.timestamp,
                     commit.commit.id.substr(0, 7), one_line(commit.commit.summary));
}

int run(const Options& options, Session& session) {
  git::Repo& repo = session.repo();
  const WorktreeSnapshot snapshot(repo.workdir());
  const std::optional<std::string> text = snapshot.read(distill::k_log_path);
  distill::DistillLog log;
  if (text) {
    log = distill::DistillLog::parse(distill::k_log_path, *text);
  }
  const auto by_log_id = repo.head_commit() ? repo.trailer_index(k_trailer_log_id)
                                            : std::map<std::string, std::vector<std::string>>{};
  const std::vector<distill::ResolvedEntry> entries = distill::resolve_log(
      log.operations(), by_log_id,
      [&repo](const std::string& commit) -> std::optional<std::string> {
        const git::CommitInfo info = repo.commit_info(commit);
        return info.parents.empty() ? std::nullopt
                                    : std::optional<std::string>(info.parents.front());
      });
  std::size_t with_problems = 0;
  for (const distill::ResolvedEntry& entry : entries) {
    with_problems += entry.problems.empty() ? 0 : 1;
  }
  const int code = options.verify && with_problems > 0 ? exit_code::k_no : exit_code::k_ok;

  const std::vector<RecallCommit> recall = recall_commits(repo);
  if (session.output().json) {
    Json out{{"schema", 1}, {"entries", Json::array()}};
    for (const distill::ResolvedEntry& entry : entries) {
      out["entries"].push_back(entry_json(entry, options.verify));
    }
    for (const RecallCommit& commit : recall) {
      out["entries"].push_back({{"id", commit.id},
                                {"type", commit.type},
                                {"timestamp", commit.timestamp},
                                {"commit", commit.commit.id},
                                {"affected_memories", Json::array()},
                                {"summary", commit.commit.summary}});
    }
    if (options.verify) {
      out["ok"] = with_problems == 0;
    }
    util::print_json(out);
    return code;
  }

  // Working-memory maintenance is listed after the distill log, from history.
  std::string recall_lines;
  for (const RecallCommit& commit : recall) {
    recall_lines += recall_line(commit) + "\n";
  }
  if (!text && recall.empty()) {
    std::fputs(fmt::format("No distill log ({}).\n", distill::k_log_path).c_str(), stdout);
    return code;
  }
  if (entries.empty() && !recall.empty()) {
    session.page();
    std::fputs(recall_lines.c_str(), stdout);
    return code;
  }
  if (entries.empty()) {
    // Said, not left blank: an empty answer looks like a failure.
    std::fputs(fmt::format("The distill log is empty: no maintenance action or recorded report "
                           "yet (`git vault distill --record` records one).\n")
                   .c_str(),
               stdout);
    return code;
  }
  std::string lines;
  for (const distill::ResolvedEntry& entry : entries) {
    const std::size_t count = affected_count(entry.operation.raw);
    std::string notes;
    if (const auto it = entry.operation.raw.find("notes");
        it != entry.operation.raw.end() && it->is_string()) {
      notes = one_line(it->get<std::string>());
    }
    std::string line =
        fmt::format("{}  {}  {}  {}  {} {}", entry.operation.id, entry.operation.type,
                    entry.operation.timestamp, entry.commit ? entry.commit->substr(0, 7) : "-",
                    count, count == 1 ? "memory" : "memories");
    if (!notes.empty()) {
      line += "  " + notes;
    }
    lines += line + "\n";
    if (options.verify) {
      for (const std::string& problem : entry.problems) {
        lines += fmt::format("  ! {}\n", problem);
      }
      if (entry.legacy) {
        lines += "  (written before commits were recorded; not checked)\n";
      }
    }
  }
  if (options.verify) {
    // Entries from before commits were recorded cannot be checked: counted apart, never as
    // matching.
    std::size_t unchecked = 0;
    for (const distill::ResolvedEntry& entry : entries) {
      unchecked += entry.legacy ? 1 : 0;
    }
    const std::size_t checked = entries.size() - unchecked;
    lines += with_problems == 0
                 ? fmt::format("{} checked: all match their commits",
                               util::plural(checked, "entry", "entries"))
                 : fmt::format("{} checked: {} do not match history",
                               util::plural(checked, "entry", "entries"), with_problems);
    lines +=
        unchecked == 0
            ? std::string(".\n")
            : fmt::format("; {} written before commits were recorded, not checked.\n", unchecked);
  }
  session.page();
  std::fputs((lines + recall_lines).c_str(), stdout);
  return code;
}

}  // namespace log_command

Runner define_log(CLI::App& app) {
  using namespace log_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_flag("--verify", options->verify,
               "Report entries whose commit is missing or does not match the log (exit 1)");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
