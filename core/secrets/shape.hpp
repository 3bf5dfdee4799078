#pragma once

#include <string_view>

// What a value looks like: the judgements the secret rules share (doc/secrets.md, "What counts
// as a secret"). ASCII only: credentials are ASCII, and a byte of a UTF-8 sequence is simply
// not a token character.
namespace gv::secrets {

[[nodiscard]] constexpr bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
[[nodiscard]] constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
[[nodiscard]] constexpr bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
// A character of a token as providers spell them: letters, digits, `_` and `-`.
[[nodiscard]] constexpr bool is_token_char(char c) { return is_alnum(c) || c == '_' || c == '-'; }
[[nodiscard]] constexpr bool is_base64_char(char c) {
  return is_alnum(c) || c == '+' || c == '/' || c == '=';
}
[[nodiscard]] constexpr char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Shannon entropy in bits per character: generated keys score above 3.5, words and
// placeholders well below.
[[nodiscard]] double entropy(std::string_view value);

// A mask or a stand-in in a token's place: `<token>`, `${VAR}`, `{{ secrets.X }}`, `xxxx`,
// `****`, `your-…`, `changeme`, `EXAMPLE` (the providers' documented examples end so), or one
// or two characters repeated. Safe on a generated token's body: no short word that chance
// would spell.
[[nodiscard]] bool looks_like_mask(std::string_view value);

// A value assigned to a name that is not a value of its own: a mask, a variable (`$TOKEN`,
// `%KEY%`), or a value that names what it stands for or where it comes from (`my-secret`,
// `password`, `os.environ[…]`).
[[nodiscard]] bool looks_like_placeholder(std::string_view value);

// A name in code rather than a value: words of letters (a number may end a word) joined by
// `.`, `_` or `-`, with at least one joint: `settings.api_key_v2`, `DB_PASSWORD`,
// `process.env.TOKEN`.
[[nodiscard]] bool looks_like_identifier(std::string_view value);

// A value assigned to a key, token or secret that looks generated: at least 12 characters,
// letters and digits, entropy of 3 bits or more, and neither a placeholder, an identifier, a
// URL nor a path.
[[nodiscard]] bool looks_random(std::string_view value);

// A value assigned to a password: at least 8 characters of two kinds or more (lower case,
// upper case, digits, punctuation), without spaces, and neither a placeholder, an identifier,
// a URL nor a path.
[[nodiscard]] bool looks_like_password(std::string_view value);

}  // namespace gv::secrets
