#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

// The table of distill sub-modes. Adding a sub-mode is one file (core/distill/<name>.cpp, which
// defines the SubMode and its factory) plus one row in core/distill/sub_modes.cpp: the
// `git vault distill` flag and its help, the distill log counter, the `vault-log` merge
// driver's recount and `git vault revert`'s eligibility all read that row
// (doc/architecture.md).
namespace gv::distill {

class SubMode;

// One row of the table: everything outside its own file that git-vault knows about a
// sub-mode. The views point at string literals.
struct SubModeInfo {
  // The flag (`--<name>`), SubMode::name(), the commit's `Vault-Action` trailer and the log
  // entry's `type` (unless the sub-mode logs under another type, as `auto` logs as `refine`).
  std::string_view name;
  std::string_view help;  // the flag's help line in `git vault distill -h`
  // The distill log summary counter that its entries' `affected_memories` add to (and that the
  // merge driver recounts); empty when its entries count under another row's type.
  std::string_view log_counter;
  bool revertible = true;  // whether `git vault revert` may undo its commits
  std::unique_ptr<SubMode> (*make)() = nullptr;
  // Empty for a plain flag; else the flag takes a value named so in the help (`--review
  // QUESTION`), handed to the sub-mode through its context.
  std::string_view argument = {};
};

// A summary counter and the log entry type whose `affected_memories` it sums.
struct LogCounter {
  std::string_view counter;
  std::string_view type;
};

// An ordered set of sub-mode rows (help order). Copyable, so a test can take the built-in
// table and add a fixture row.
class SubModeRegistry {
 public:
  explicit SubModeRegistry(std::vector<SubModeInfo> rows);

  // Adds a row at the end. Throws gv::Error when the name is empty or taken, or the row has no
  // factory.
  void add(SubModeInfo row);

  [[nodiscard]] const std::vector<SubModeInfo>& rows() const { return m_rows; }
  // The row called `name`, or nullptr.
  [[nodiscard]] const SubModeInfo* find(std::string_view name) const;
  // A new instance of the sub-mode called `name`, or nullptr when there is none.
  [[nodiscard]] std::unique_ptr<SubMode> make(std::string_view name) const;

  // The one sub-mode among `chosen` (names whose flag was given), or nullptr when none was.
  // Throws gv::UsageError listing every flag when more than one was given.
  [[nodiscard]] const SubModeInfo* choose(const std::vector<std::string_view>& chosen) const;

  // Every summary counter of the distill log in file order: `total_operations` is not one of
  // them (it counts entries); the sub-modes' counters in row order, then `total_reviewed`
  // (`git vault review` is an action but not a sub-mode).
  [[nodiscard]] std::vector<LogCounter> log_counters() const;

  // Whether `git vault revert` can undo a commit whose `Vault-Action` is `action`: a sub-mode
  // whose row allows it, or one of the other distill actions (report, review, revert).
  [[nodiscard]] bool revertible(std::string_view action) const;

 private:
  std::vector<SubModeInfo> m_rows;
};

// The sub-modes this binary ships (core/distill/sub_modes.cpp).
[[nodiscard]] const SubModeRegistry& builtin_sub_modes();

}  // namespace gv::distill
