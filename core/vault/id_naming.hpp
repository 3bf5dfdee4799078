#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"

// How a vault names its memories, read from the ids it already has, so that a memory git-vault
// writes reads like its neighbours (doc/vault-format.md, "Ids and slugs"): `MEM-some-slug`,
// `MEM-pattern-some-slug` (the category first), `MEM-2026-03-05-001-some-slug` (dated and
// numbered per day) or `MEM-001` (numbered).
namespace gv {

enum class IdStyle { slug, category_slug, dated, numbered };

struct IdNaming {
  IdStyle style = IdStyle::slug;
  std::size_t number_width = 3;  // digits of the number (dated, numbered)
};

// The style most of `ids` follow (ties and an empty vault: `slug`).
[[nodiscard]] IdNaming detect_id_naming(const std::vector<std::string>& ids);

// The words of `title` an id is made of: lower-case ASCII letters and digits, whole words
// only, stop words left out (unless nothing else is left), at most `words` of them.
[[nodiscard]] std::vector<std::string> slug_words(std::string_view title, std::size_t words = 4);

// A new id for a memory titled `title` in `naming`: the slug words of the title (for
// `category_slug`, the category first), after today's date and the day's next number (dated),
// or the next number alone (numbered). `-2`, `-3`… is appended while `exists` says the id is
// taken. The topic is not part of it: the vaults seen name memories by what they say.
[[nodiscard]] std::string name_memory(const IdNaming& naming, const std::vector<std::string>& ids,
                                      std::string_view title, std::string_view category, Date today,
                                      const std::function<bool(std::string_view id)>& exists);

}  // namespace gv
