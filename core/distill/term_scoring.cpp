#include "core/distill/term_scoring.hpp"

namespace gv::distill {

std::string excerpt(std::string_view text, std::size_t width) {
  std::string out;
  for (char c : text) {
    out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  }
  if (out.size() > width) {
    std::size_t cut = width > 3 ? width - 3 : 0;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) {
      --cut;  // never split a UTF-8 sequence
    }
    out = out.substr(0, cut) + "...";
  }
  return out;
}

std::string whole_words(std::string_view text, std::size_t width) {
  std::string flat;
  for (const char c : text) {
    const bool blank = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (blank) {
      if (!flat.empty() && flat.back() != ' ') {
        flat += ' ';
      }
    } else {
      flat += c;
    }
  }
  while (!flat.empty() && flat.back() == ' ') {
    flat.pop_back();
  }
  if (flat.size() <= width) {
    return flat;
  }
  std::size_t cut = flat.rfind(' ', width);
  if (cut == std::string::npos || cut == 0) {
    // One word longer than the width: cut it on a UTF-8 boundary.
    cut = width;
    while (cut > 0 && (static_cast<unsigned char>(flat[cut]) & 0xC0) == 0x80) {
      --cut;
    }
  }
  std::string out = flat.substr(0, cut);
  while (!out.empty() && (out.back() == ',' || out.back() == ';' || out.back() == ':' ||
                          out.back() == '-' || out.back() == ' ')) {
    out.pop_back();
  }
  return out;
}

}  // namespace gv::distill
