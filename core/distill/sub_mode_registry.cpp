#include "core/distill/sub_mode_registry.hpp"

#include <fmt/format.h>

#include "core/distill/sub_mode.hpp"
#include "core/error.hpp"

// The table's behaviour, apart from the built-in rows (core/distill/sub_modes.cpp): a reader
// of the distill log needs the counters, not every sub-mode linked in.
namespace gv::distill {
namespace {

// The other actions that write a distill log entry and that revert can undo.
constexpr std::string_view k_other_revertible[] = {"report", "review", "revert"};

}  // namespace

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
