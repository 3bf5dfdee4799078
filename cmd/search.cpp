#include "core/vault/search.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "core/distill/finish.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/git/transaction.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/json_output.hpp"
#include "core/vault/vault.hpp"

namespace gv::cmd {
namespace {

struct Options {
  std::vector<std::string> query;
  std::size_t limit = 5;
  bool record = false;
};

// Counts one retrieval of every hit in its frontmatter (the source of truth, D4) and
// regenerates the index files, in the work tree: retrieval bookkeeping happens on every agent
// read, and a commit per read would bury the history; it lands with the user's next commit.
void record_retrievals(git::Repo& repo, const Snapshot& snapshot, const Vault& vault,
                       const std::vector<SearchHit>& hits, const Clock& clock, ParseCache* cache,
                       git::ReadState read_state) {
  Plan plan;
  for (const SearchHit& hit : hits) {
    const auto memory = std::find_if(vault.memories.begin(), vault.memories.end(),
                                     [&](const Memory& m) { return m.id == hit.id; });
    const std::optional<std::string> bytes = snapshot.read(memory->path);
    if (!bytes) {
      throw Error("{}: cannot read", memory->path);
    }
    FrontmatterEditor editor(memory->path, *bytes);
    editor.set_scalar("retrieval_count", std::to_string(memory->retrieval_count + 1));
    editor.set_scalar("last_retrieved", format_date(clock.today));
    plan.write(memory->path, editor.bytes());
  }
  std::optional<ExistingIndex> existing;
  if (const auto bytes = snapshot.read(vault_path::k_index_json)) {
    existing = read_index(vault_path::k_index_json, *bytes).index;
  }
  (void)distill::regenerate_index_files(plan, snapshot, existing, clock.today, cache);
  git::ApplyOptions options;
  options.commit = false;
  options.allow_dirty = true;
  options.read_state = std::move(read_state);
  (void)git::apply(repo, plan, options);
}

int run(const Options& options, Session& session) {
  std::string query;
  for (const std::string& word : options.query) {
    query += (query.empty() ? "" : " ") + word;
  }
  git::Repo& repo = session.repo();
  std::optional<git::ReadState> read_state;
  if (options.record) {
    read_state = git::capture_read_state(repo, {std::string(vault_path::k_root)});
  }
  const WorktreeSnapshot snapshot(repo.workdir());
  const Vault vault = load_vault(snapshot, session.parse_cache());
  const std::vector<SearchHit> hits = search_memories(vault.memories, query, options.limit);
  if (options.record && !hits.empty()) {
    record_retrievals(repo, snapshot, vault, hits, session.clock(), session.parse_cache(),
                      std::move(*read_state));
  }
  if (session.output().json) {
    nlohmann::ordered_json out{
        {"schema", 1}, {"query", query}, {"hits", nlohmann::ordered_json::array()}};
    for (const SearchHit& hit : hits) {
      const auto memory = std::find_if(vault.memories.begin(), vault.memories.end(),
                                       [&](const Memory& m) { return m.id == hit.id; });
      out["hits"].push_back(
          {{"id", hit.id}, {"path", memory->path}, {"title", memory->title}, {"score", hit.score}});
    }
    util::print_json(out);
  } else {
    for (const SearchHit& hit : hits) {
      const auto memory = std::find_if(vault.memories.begin(), vault.memories.end(),
                                       [&](const Memory& m) { return m.id == hit.id; });
      std::fputs(fmt::format("{}\t{}\t{}\n", memory->path, hit.score, memory->title).c_str(),
                 stdout);
    }
  }
  return hits.empty() ? exit_code::k_no : exit_code::k_ok;
}

}  // namespace

Runner define_search(CLI::App& app) {
  auto options = std::make_shared<Options>();
  app.add_option("query", options->query, "Words to look for")->required();
  app.add_option("--limit", options->limit, "Most hits to show")->capture_default_str();
  app.add_flag("--record", options->record,
               "Count a retrieval of every hit in its frontmatter (work tree only)");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
