#include "core/util/join_some.hpp"

#include <fmt/format.h>

#include "core/util/text.hpp"

namespace gv::util {

std::string join_some(const std::vector<std::string>& parts, std::string_view separator,
                      std::size_t shown) {
  if (parts.size() <= shown) {
    return join(parts, separator);
  }
  const std::vector<std::string> named(parts.begin(),
                                       parts.begin() + static_cast<std::ptrdiff_t>(shown));
  return fmt::format("{} and {} more", join(named, separator), parts.size() - shown);
}

}  // namespace gv::util
