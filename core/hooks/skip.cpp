#include "core/hooks/skip.hpp"

namespace gv::hooks {

SkipSpec parse_skip(std::string_view value) {
  SkipSpec spec;
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t end = value.find(',', start);
    if (end == std::string_view::npos) {
      end = value.size();
    }
    std::string_view name = value.substr(start, end - start);
    while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) {
      name.remove_prefix(1);
    }
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) {
      name.remove_suffix(1);
    }
    if (name == "all") {
      spec.all = true;
    } else if (!name.empty()) {
      spec.checks.emplace(name);
    }
    start = end + 1;
  }
  return spec;
}

}  // namespace gv::hooks
