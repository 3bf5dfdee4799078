#include "core/secrets/shape.hpp"

#include <array>
#include <cmath>
#include <string>

namespace gv::secrets {
namespace {

bool contains_lowered(std::string_view lowered, std::string_view marker) {
  return lowered.find(marker) != std::string_view::npos;
}

std::string lowered_copy(std::string_view value) {
  std::string lowered;
  lowered.reserve(value.size());
  for (const char c : value) {
    lowered += lower(c);
  }
  return lowered;
}

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool is_url_or_path(std::string_view value) {
  return value.find("://") != std::string_view::npos || value.starts_with('/') ||
         value.starts_with("~/") || value.starts_with("./") || value.starts_with("../");
}

}  // namespace

double entropy(std::string_view value) {
  if (value.empty()) {
    return 0.0;
  }
  std::array<int, 256> counts{};
  for (const char c : value) {
    ++counts[static_cast<unsigned char>(c)];
  }
  double bits = 0.0;
  for (const int count : counts) {
    if (count > 0) {
      const double p = static_cast<double>(count) / static_cast<double>(value.size());
      bits -= p * std::log2(p);
    }
  }
  return bits;
}

bool looks_like_mask(std::string_view value) {
  const std::string lowered = lowered_copy(value);
  // Template and shell syntax, masks, and the words documentation puts where a value goes.
  for (const std::string_view marker :
       {"xxxx",      "****",     "....",  "<",       ">",           "${",       "$(",
        "{{",        "%(",       "your",  "example", "placeholder", "changeme", "change_me",
        "change-me", "redacted", "dummy", "sample",  "foobar",      "lorem"}) {
    if (contains_lowered(lowered, marker)) {
      return true;
    }
  }
  // One or two characters over and over (`0000…`, `abab…`).
  std::array<bool, 256> seen{};
  int distinct = 0;
  for (const char c : value) {
    bool& mark = seen[static_cast<unsigned char>(c)];
    if (!mark) {
      mark = true;
      ++distinct;
    }
  }
  return distinct <= 2;
}

bool looks_like_placeholder(std::string_view value) {
  if (looks_like_mask(value)) {
    return true;
  }
  if (value.starts_with('$') || value.starts_with('%') || value.starts_with('@')) {
    return true;  // `$TOKEN`, `%API_KEY%`, `@password@`
  }
  // A value that names what it stands for, or where it comes from (`os.environ[…]`).
  const std::string lowered = lowered_copy(value);
  for (const std::string_view marker :
       {"secret", "password", "passwd", "token", "api_key", "apikey", "env", "todo"}) {
    if (contains_lowered(lowered, marker)) {
      return true;
    }
  }
  return false;
}

bool looks_like_identifier(std::string_view value) {
  bool joint = false;
  bool word_started = false;
  bool in_digits = false;  // digits may end a word, not start or split one
  for (const char c : value) {
    if (c == '.' || c == '_' || c == '-') {
      if (!word_started) {
        return false;
      }
      joint = true;
      word_started = false;
      in_digits = false;
    } else if (is_letter(c)) {
      if (in_digits) {
        return false;
      }
      word_started = true;
    } else if (is_digit(c)) {
      if (!word_started) {
        return false;
      }
      in_digits = true;
    } else {
      return false;
    }
  }
  return joint && word_started;
}

bool looks_random(std::string_view value) {
  bool letter = false;
  bool digit = false;
  for (const char c : value) {
    letter = letter || is_letter(c);
    digit = digit || is_digit(c);
  }
  return value.size() >= 12 && letter && digit && entropy(value) >= 3.0 &&
         !looks_like_placeholder(value) && !looks_like_identifier(value) && !is_url_or_path(value);
}

bool looks_like_password(std::string_view value) {
  bool lower_case = false;
  bool upper_case = false;
  bool digit = false;
  bool punctuation = false;
  for (const char c : value) {
    if (c == ' ' || c == '\t') {
      return false;  // prose, or a passphrase written as one: not told from prose
    }
    lower_case = lower_case || (c >= 'a' && c <= 'z');
    upper_case = upper_case || (c >= 'A' && c <= 'Z');
    digit = digit || is_digit(c);
    punctuation = punctuation || (!is_alnum(c) && static_cast<unsigned char>(c) < 0x80);
  }
  const int kinds = static_cast<int>(lower_case) + static_cast<int>(upper_case) +
                    static_cast<int>(digit) + static_cast<int>(punctuation);
  return value.size() >= 8 && kinds >= 2 && !looks_like_placeholder(value) &&
         !looks_like_identifier(value) && !is_url_or_path(value);
}

}  // namespace gv::secrets
