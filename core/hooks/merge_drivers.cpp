#include "core/hooks/merge_drivers.hpp"

#include <fmt/format.h>

namespace gv::hooks {

std::string driver_command(const MergeDriver& driver) {
  // `--`: a path that starts with `-` is never read as an option.
  return fmt::format("git vault merge-driver {} -- %O %A %B %P", driver.kind);
}

}  // namespace gv::hooks
