#include "core/util/text.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gv::util {

std::string_view trim_left(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size() && is_space(text[start])) {
    ++start;
  }
  return text.substr(start);
}

std::string_view trim_right(std::string_view text) {
  std::size_t end = text.size();
  while (end > 0 && is_space(text[end - 1])) {
    --end;
  }
  return text.substr(0, end);
}

std::string_view trim(std::string_view text) { return trim_right(trim_left(text)); }

std::string_view trim_right_blanks(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

std::string to_lower_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

bool valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    char32_t code = 0;
    if ((byte & 0xE0) == 0xC0) {
      length = 2;
      code = byte & 0x1F;
    } else if ((byte & 0xF0) == 0xE0) {
      length = 3;
      code = byte & 0x0F;
    } else if ((byte & 0xF8) == 0xF0) {
      length = 4;
      code = byte & 0x07;
    } else {
      return false;
    }
    if (i + length > text.size()) {
      return false;
    }
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) {
        return false;
      }
      code = (code << 6) | (next & 0x3F);
    }
    constexpr char32_t k_smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < k_smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return false;
    }
    i += length;
  }
  return true;
}

std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) {
    return text;
  }
  std::size_t end = max_bytes;
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the cut sequence.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
    --end;
  }
  return text.substr(0, end);
}

std::string shorten(std::string_view text, std::size_t max_bytes) {
  constexpr std::string_view k_ellipsis = "\u2026";
  if (text.size() <= max_bytes) {
    return std::string(text);
  }
  const std::size_t room = max_bytes > k_ellipsis.size() ? max_bytes - k_ellipsis.size() : 0;
  return std::string(utf8_prefix(text, room)) + std::string(k_ellipsis);
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += separator;
    }
    out += parts[i];
  }
  return out;
}

std::string plural(std::size_t count, std::string_view singular, std::string_view plural_form) {
  return fmt::format("{} {}", count, count == 1 ? singular : plural_form);
}

std::string code_span(std::string_view text) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  if (longest == 0) {
    return fmt::format("`{}`", text);
  }
  const std::string fence(longest + 1, '`');
  return fmt::format("{0} {1} {0}", fence, text);
}

}  // namespace gv::util
