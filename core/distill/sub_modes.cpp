#include <fmt/format.h>

#include <utility>

#include "core/distill/sub_mode.hpp"
#include "core/distill/sub_mode_registry.hpp"
#include "core/error.hpp"

namespace gv::distill {

// Each sub-mode lives in core/distill/<name>.cpp and exports its factory here.
std::unique_ptr<SubMode> make_purge();
std::unique_ptr<SubMode> make_merge();
std::unique_ptr<SubMode> make_compress();
std::unique_ptr<SubMode> make_refine();
std::unique_ptr<SubMode> make_gc();
std::unique_ptr<SubMode> make_auto();  // core/distill/auto_mode.cpp
std::unique_ptr<SubMode> make_revise();
std::unique_ptr<SubMode> make_meta();
std::unique_ptr<SubMode> make_review();
std::unique_ptr<SubMode> make_learn();
std::unique_ptr<SubMode> make_dream();

namespace {

// The other actions that write a distill log entry and that revert can undo.
constexpr std::string_view k_other_revertible[] = {"report", "review", "revert"};

}  // namespace

const SubModeRegistry& builtin_sub_modes() {
  // In help order. `auto` logs as `refine`, so refine's counter counts it too.
  static const SubModeRegistry registry({
      {"purge", "Tombstone stale or never-retrieved memories", "total_purged", true, make_purge},
      {"merge", "Merge memories with overlapping keywords", "total_merged", true, make_merge},
      {"compress", "Summarise oversized memories", "total_compressed", true, make_compress},
      {"refine", "Fix metadata quality issues", "total_refined", true, make_refine},
      {"gc", "Delete memories tombstoned more than 7 days ago", "total_gc_deleted", true, make_gc},
      {"auto", "Apply automatic metadata fixes without a prompt", "", true, make_auto},
      // The telemetry sub-modes (doc/telemetry.md) keep their counters in their own logs.
      {"revise",
       "Update or tombstone memories that recorded events contradict (three strikes in distinct "
       "sessions); expect misses",
       "", true, make_revise},
      {"meta",
       "Propose agent-system improvements from recurring deviations, blockers and reflections "
       "(this repository's events only); expect misses",
       "", true, make_meta},
      {"review", "Answer a question from the vault, events and history, citing every record", "",
       true, make_review, "QUESTION"},
      {"learn", "Harvest the unharvested memory candidates of archived tasks", "", true,
       make_learn},
      {"dream", "Surface recurring prompt themes that no memory or open task covers", "", true,
       make_dream},
  });
  return registry;
}

std::unique_ptr<SubMode> make_sub_mode(std::string_view name) {
  return builtin_sub_modes().make(name);
}

SubModeRegistry::SubModeRegistry(std::vector<SubModeInfo> rows) {
  for (SubModeInfo& row : rows) {
    add(row);
  }
}

void SubModeRegistry::add(SubModeInfo row) {
  if (row.name.empty() || row.make == nullptr) {
    throw Error("sub-mode `{}`: a row needs a name and a factory", row.name);
  }
  if (find(row.name) != nullptr) {
    throw Error("sub-mode `{}` is registered twice", row.name);
  }
  m_rows.push_back(row);
}

const SubModeInfo* SubModeRegistry::find(std::string_view name) const {
  for (const SubModeInfo& row : m_rows) {
    if (row.name == name) {
      return &row;
    }
  }
  return nullptr;
}

std::unique_ptr<SubMode> SubModeRegistry::make(std::string_view name) const {
  const SubModeInfo* row = find(name);
  return row == nullptr ? nullptr : row->make();
}

const SubModeInfo* SubModeRegistry::choose(const std::vector<std::string_view>& chosen) const {
  if (chosen.size() > 1) {
    std::string flags;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
      flags += i == 0 ? "" : (i + 1 == m_rows.size() ? " or " : ", ");
      flags += fmt::format("--{}", m_rows[i].name);
    }
    throw UsageError("choose one sub-mode: {}", flags);
  }
  return chosen.empty() ? nullptr : find(chosen.front());
}

std::vector<LogCounter> SubModeRegistry::log_counters() const {
  std::vector<LogCounter> counters;
  for (const SubModeInfo& row : m_rows) {
    if (!row.log_counter.empty()) {
      counters.push_back({row.log_counter, row.name});
    }
  }
  counters.push_back({"total_reviewed", "review"});
  return counters;
}

bool SubModeRegistry::revertible(std::string_view action) const {
  if (const SubModeInfo* row = find(action)) {
    return row->revertible;
  }
  for (std::string_view other : k_other_revertible) {
    if (action == other) {
      return true;
    }
  }
  return false;
}

}  // namespace gv::distill
