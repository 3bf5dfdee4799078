#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/git/merge_base.hpp"
#include "core/git/repo.hpp"
#include "core/review/build.hpp"
#include "core/review/render.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/tree_snapshot.hpp"
#include "core/util/json_output.hpp"
#include "core/vault/vault.hpp"

namespace gv::cmd {
namespace review_command {

struct Options {
  std::string range;
  std::size_t limit = 20;
};

struct Ends {
  std::string base;
  std::string head;
};

std::string commit_of(const git::Repo& repo, std::string_view rev) {
  const std::string name = rev.empty() ? std::string("HEAD") : std::string(rev);
  const std::optional<std::string> commit = repo.resolve_commit(name);
  if (!commit) {
    throw UsageError("'{}' names no commit", name);
  }
  return *commit;
}

std::string merge_base_of(const git::Repo& repo, const std::string& a, const std::string& b) {
  const std::optional<std::string> base = git::merge_base(repo, a, b);
  if (!base) {
    throw Error("{} and {} have no common ancestor", a.substr(0, 12), b.substr(0, 12));
  }
  return *base;
}

// `BASE...HEAD` compares HEAD with the merge base (what a pull request shows); `BASE..HEAD`
// compares with BASE itself; a single revision means `REV...HEAD`; nothing means the merge base
// with the default branch (git::default_base).
Ends resolve_ends(const git::Repo& repo, const std::string& range) {
  if (range.empty()) {
    const std::string head = commit_of(repo, "HEAD");
    const std::optional<git::DefaultBase> base = git::default_base(repo);
    if (!base) {
      throw UsageError(
          "no origin/HEAD, main, master or upstream to compare with; name a range "
          "(git vault review BASE...HEAD)");
    }
    const std::string merge_base = merge_base_of(repo, base->commit, head);
    if (merge_base == head) {
      // On the default branch itself (or behind it) the branch adds nothing to review: say
      // which range to give instead of printing an empty review.
      const bool has_parent = !repo.commit_info(head).parents.empty();
      throw UsageError(
          "nothing to review: HEAD is where {} is, so it adds no commit to it; name a range{}",
          base->rev,
          has_parent ? " (from a branch: git vault review " + base->rev +
                           "...<branch>), e.g. for the last commit: git vault review HEAD~1..HEAD"
                     : std::string(": HEAD is the first commit, so there is nothing before it to "
                                   "compare"));
    }
    return {merge_base, head};
  }
  if (const std::size_t dots = range.find("..."); dots != std::string::npos) {
    const std::string head = commit_of(repo, range.substr(dots + 3));
    return {merge_base_of(repo, commit_of(repo, range.substr(0, dots)), head), head};
  }
  if (const std::size_t dots = range.find(".."); dots != std::string::npos) {
    return {commit_of(repo, range.substr(0, dots)), commit_of(repo, range.substr(dots + 2))};
  }
  const std::string head = commit_of(repo, "HEAD");
  return {merge_base_of(repo, commit_of(repo, range), head), head};
}

int run(const Options& options, Session& session) {
  const git::Repo& repo = session.repo();
  const Ends ends = resolve_ends(repo, options.range);
  std::vector<git::CommitInfo> commits;
  if (ends.base != ends.head) {
    for (const std::string& id : repo.resolve_range(ends.base + ".." + ends.head)) {
      commits.push_back(repo.commit_info(id));
    }
  }
  const TreeSnapshot base(repo, ends.base);
  const TreeSnapshot head(repo, ends.head);
  // Only the memory files the trees disagree on are read at BASE; HEAD's vault comes from the
  // parse cache the gate keeps.
  const std::vector<git::TreeChange> changes =
      repo.diff_trees(base.tree(), head.tree(), vault_path::k_memories);
  review::Review review = review::build_review(base, head, commits, session.clock().today,
                                               {&changes, session.persistent_parse_cache()});
  review.base = ends.base;
  review.head = ends.head;
  if (session.output().json) {
    util::print_json(review::review_json(review));
  } else {
    session.page();
    std::fputs(review::render_markdown(review, {options.limit}).c_str(), stdout);
  }
  return exit_code::k_ok;
}

}  // namespace review_command

Runner define_review(CLI::App& app) {
  using namespace review_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_option("range", options->range,
                 "BASE...HEAD (against the merge base), BASE..HEAD, or BASE; default: the merge "
                 "base with the default branch (origin/HEAD, main or master)");
  app.add_option("--limit", options->limit, "Rows per table before the rest is summarised")
      ->check(CLI::Range(1, 1000000000));
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
