#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/snapshot/snapshot.hpp"

namespace gv {

// A Snapshot with a plan's changes laid over another one: what the repository will hold once
// the plan is applied. Lets an action regenerate indexes and measure "after" metrics before
// anything is written. `base` and `changes` must outlive the overlay.
class OverlaySnapshot final : public Snapshot {
 public:
  OverlaySnapshot(const Snapshot& base,
                  const std::map<std::string, std::optional<std::string>>& changes)
      : m_base(base), m_changes(changes) {}

  [[nodiscard]] std::vector<SnapshotEntry> list(std::string_view prefix) const override;
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override;
  [[nodiscard]] std::string describe() const override { return m_base.describe() + " + plan"; }

 private:
  const Snapshot& m_base;
  const std::map<std::string, std::optional<std::string>>& m_changes;
};

}  // namespace gv
