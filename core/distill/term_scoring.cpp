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

}  // namespace gv::distill
