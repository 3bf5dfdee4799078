#include "core/search/search.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "core/agent/live_vault.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/session/session.hpp"
#include "core/util/file.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/util/text.hpp"

namespace gv::cmd {
namespace search_command {

struct Options {
  std::vector<std::string> query;
  std::size_t limit = 10;
  std::string scope = "all";
  bool record = false;
};

// `path:line:` as seen from where the command ran, so that an editor opens it from there
// (`--json` keeps repository paths).
std::string render_hit(const search::Hit& hit, const util::PathsFromCwd& from_cwd) {
  const std::string where = fmt::format("{}:{}:", from_cwd(hit.path), hit.line);
  const std::string what =
      hit.kind == search::Hit::Kind::memory
          ? fmt::format("{} {}", hit.id, hit.title)
          : fmt::format("[{}]{}", hit.tier, hit.id.empty() ? "" : " ^" + hit.id);
  return fmt::format("{} {} ({:.2f})\n    {}\n", where, what, hit.score, hit.snippet);
}

int run(const Options& options, Session& session) {
  std::string query;
  for (const std::string& word : options.query) {
    query += (query.empty() ? "" : " ") + word;
  }
  const Clock& clock = session.clock();
  agent::LiveVault live(session.repo(), nullptr);
  live.refresh_search([&session] { return session.parse_cache(); });
  std::size_t matched = 0;
  // --limit 0: every hit, as the global --limit takes 0.
  const std::size_t limit = options.limit == 0 ? SIZE_MAX : options.limit;
  const std::vector<search::Hit> hits =
      live.index().search(query, *search::parse_scope(options.scope), limit, live.snapshot(),
                          live.pending_counts(), &matched);

  if (options.record) {
    std::vector<std::string> ids;
    for (const search::Hit& hit : hits) {
      if (hit.kind == search::Hit::Kind::memory) {
        ids.push_back(hit.id);
      }
    }
    // Recording is bookkeeping: when the journal cannot be written, the answer still counts.
    try {
      live.record(ids, clock.today, "search");
    } catch (const Error& e) {
      util::print_warning(fmt::format("retrievals not recorded: {}", e.what()));
    }
  }
  if (session.output().json) {
    nlohmann::ordered_json out{
        {"schema", 1}, {"query", query}, {"results", nlohmann::ordered_json::array()}};
    for (const search::Hit& hit : hits) {
      out["results"].push_back(agent::hit_json(hit));
    }
    out["total"] = matched;  // after the fixed keys: how many matched, past --limit too
    util::print_json(out);
  } else {
    std::string text;
    const util::PathsFromCwd from_cwd(session.repo().workdir());
    for (const search::Hit& hit : hits) {
      text += render_hit(hit, from_cwd);
    }
    session.page();
    std::fputs(text.c_str(), stdout);
    // Said on stderr, after the hits: stdout stays one hit per entry for scripts.
    if (matched > hits.size()) {
      std::fputs(fmt::format("git-vault: {} of {} shown; --limit 0 shows them all\n", hits.size(),
                             util::plural(matched, "match", "matches"))
                     .c_str(),
                 stderr);
    }
  }
  if (hits.empty()) {
    std::fputs(fmt::format("git-vault: no {} matches `{}`\n",
                           options.scope == "memories"  ? "memory"
                           : options.scope == "working" ? "working-memory entry"
                                                        : "memory or working-memory entry",
                           query)
                   .c_str(),
               stderr);
    return exit_code::k_no;
  }
  return exit_code::k_ok;
}

}  // namespace search_command

Runner define_search(CLI::App& app) {
  using namespace search_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_option("query", options->query, "Words to look for")->required();
  app.add_option("--limit", options->limit, "Most hits to show (0: all)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000000));
  app.add_option("--scope", options->scope,
                 "memories, working (CLAUDE.local.md, registers, archive) or all")
      ->capture_default_str()
      ->check(CLI::IsMember(std::vector<std::string>{"memories", "working", "all"}));
  app.add_flag("--record", options->record,
               "Count a retrieval of every memory found (in the retrieval journal inside the git "
               "directory; the work tree is not touched)");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
