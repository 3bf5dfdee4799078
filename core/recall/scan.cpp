#include "core/recall/scan.hpp"

#include <optional>
#include <string>
#include <utility>

#include "core/recall/files.hpp"

namespace gv::recall {

std::vector<ParsedFile> scan_managed_files(const Snapshot& snapshot, std::string_view root) {
  std::vector<ParsedFile> parsed;
  for (ManagedFile& file : list_managed_files(snapshot, root)) {
    std::optional<std::string> bytes = snapshot.read(file.path);
    if (!bytes) {
      continue;
    }
    parsed.push_back(parse_file(std::move(file), std::move(*bytes)));
  }
  return parsed;
}

}  // namespace gv::recall
