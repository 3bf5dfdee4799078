#include "core/gate/annotations.hpp"

#include <fmt/format.h>

namespace gv {
namespace {

std::string escape(std::string_view text, bool property) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string_view command_of(Severity severity) {
  switch (severity) {
    case Severity::error:
      return "error";
    case Severity::warning:
      return "warning";
    case Severity::note:
      return "notice";
  }
  return "error";
}

}  // namespace

std::string github_escape_data(std::string_view text) { return escape(text, false); }

std::string github_escape_property(std::string_view text) { return escape(text, true); }

std::string format_github_annotation(const Finding& finding, std::string_view detail) {
  std::string properties;
  if (!finding.path.empty()) {
    properties += "file=" + github_escape_property(finding.path) + ",";
    if (finding.line && *finding.line > 0) {
      properties += fmt::format("line={},", *finding.line);
    }
  }
  properties += "title=" + github_escape_property(fmt::format("git-vault [{}]", finding.check));
  std::string message = finding.message;
  if (!finding.fix.empty()) {
    message += "\nfix: " + finding.fix;
  }
  if (!detail.empty()) {
    message += "\n" + std::string(detail);
  }
  return fmt::format("::{} {}::{}\n", command_of(finding.severity), properties,
                     github_escape_data(message));
}

}  // namespace gv
