#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Frontmatter reduced to what the memory schema reads: for each top-level key, a null, a scalar,
// a list of scalars, or something else. Two producers give the same value for the same block:
// a fast scanner for the flat shapes vaults are written in, and yaml-cpp for everything else.
namespace gv {

// One list item.
struct FlatItem {
  enum class Kind { null, scalar, other };  // other: a nested list or mapping
  Kind kind = Kind::null;
  std::string text;  // the scalar as YAML reads it: quotes and escapes resolved, plain trimmed

  friend bool operator==(const FlatItem&, const FlatItem&) = default;
};

// One top-level value.
struct FlatValue {
  enum class Kind { null, scalar, sequence, other };  // other: a mapping
  Kind kind = Kind::null;
  std::string text;             // Kind::scalar
  bool quoted = false;          // Kind::scalar written in quotes: its text is kept as is (D15)
  std::vector<FlatItem> items;  // Kind::sequence

  friend bool operator==(const FlatValue&, const FlatValue&) = default;
};

struct FlatField {
  std::string key;
  FlatValue value;

  friend bool operator==(const FlatField&, const FlatField&) = default;
};

// The fields in file order. A key that appears twice appears twice (the first one is the one
// read, as yaml-cpp does).
using FlatFrontmatter = std::vector<FlatField>;

// The first field named `key`, or nullptr.
[[nodiscard]] const FlatValue* find_flat_field(const FlatFrontmatter& fields, std::string_view key);

// The fast path: reads a frontmatter block (the lines between the `---` fences) made only of
// `key: scalar`, `key: [flow, list]` and `key:` followed by `- item` lines, with plain,
// single- or double-quoted scalars and comments. Returns nullopt for anything else (nested
// mappings, multi-line scalars, anchors, tags, escapes other than \" and \\, tabs, repeated
// keys...), and the caller asks yaml-cpp. Whenever it returns a value, yaml-cpp reads the block
// without error and flatten_frontmatter() of its document is equal to it.
[[nodiscard]] std::optional<FlatFrontmatter> scan_flat_frontmatter(std::string_view block);

// The same view of a document yaml-cpp loaded (a mapping) from `block`. Keys that are not
// scalars are left out: no schema field can name them.
[[nodiscard]] FlatFrontmatter flatten_frontmatter(const YAML::Node& mapping,
                                                  std::string_view block);

}  // namespace gv
