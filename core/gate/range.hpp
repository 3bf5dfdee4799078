#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/gate/gate.hpp"

namespace gv {

namespace git {
class Repo;
}

// The findings of one commit's tree.
struct CommitFindings {
  std::string commit;  // 40 hex
  std::vector<Finding> findings;
};

// `check --range`: each finding once, under the first commit (in the given order, oldest first)
// whose tree has it. Two findings are the same when path, check and message are equal; the line
// is left out so a finding that only moved is not reported again. Commits left with no finding
// are dropped.
[[nodiscard]] std::vector<CommitFindings> first_introduced(std::vector<CommitFindings> commits);

// Runs the gate over every commit in `range` (see git::Repo::resolve_range), oldest first, with
// the persisted cache so unchanged memories are parsed once for the whole range, and returns
// first_introduced of the results.
[[nodiscard]] std::vector<CommitFindings> run_range_gate(const git::Repo& repo,
                                                         std::string_view range,
                                                         const std::filesystem::path& cache_file,
                                                         GateOptions options);

}  // namespace gv
