// The digests the gate keys its findings by (core/util/digest.hpp): a set digest must not
// depend on the order of its items, must return to its old value when an item is taken out
// again, and must tell apart sets that differ in one path or one blob id.
#include "core/util/digest.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace digest_test {

using gv::util::Digest128;
using gv::util::SetDigest128;

namespace {

using Item = std::pair<std::string, std::string>;

std::vector<Item> items(int count) {
  std::vector<Item> out;
  for (int i = 0; i < count; ++i) {
    out.emplace_back(".memory/10-Memories/MEM-" + std::to_string(i) + ".md",
                     std::string(40, static_cast<char>('a' + i % 6)));
  }
  return out;
}

SetDigest128 digest_of(const std::vector<Item>& list) {
  SetDigest128 digest;
  for (const auto& [key, value] : list) {
    digest.add(key, value);
  }
  return digest;
}

}  // namespace

TEST_CASE("a streamed digest does not depend on how its bytes are split", "[digest]") {
  Digest128 whole;
  whole.add(std::string_view("path/to/file\0abc\n", 17));
  Digest128 pieces;
  pieces.add("path/");
  pieces.add("to/file");
  pieces.add('\0');
  pieces.add("abc\n");
  CHECK(whole.hex() == pieces.hex());
  Digest128 other;
  other.add(std::string_view("path/to/file\0abd\n", 17));
  CHECK(other.hex() != whole.hex());
  // Trailing zero bytes count.
  Digest128 longer;
  longer.add(std::string_view("ab\0", 3));
  Digest128 shorter;
  shorter.add("ab");
  CHECK(longer.hex() != shorter.hex());
}

TEST_CASE("a set digest is the same in any order and follows removals", "[digest]") {
  std::vector<Item> list = items(200);
  const SetDigest128 sorted = digest_of(list);
  std::mt19937 random(7);
  std::shuffle(list.begin(), list.end(), random);
  CHECK(digest_of(list) == sorted);
  CHECK(digest_of(list).hex() == sorted.hex());

  // Taking an item out and putting it back returns to the same digest; changing its value
  // (a new blob id) does not.
  SetDigest128 changed = sorted;
  changed.remove(list[17].first, list[17].second);
  CHECK(changed != sorted);
  SetDigest128 restored = changed;
  restored.add(list[17].first, list[17].second);
  CHECK(restored == sorted);
  changed.add(list[17].first, std::string(40, 'f'));
  CHECK(changed != sorted);

  // The same as computing the new set from nothing.
  std::vector<Item> edited = list;
  edited[17].second = std::string(40, 'f');
  CHECK(digest_of(edited) == changed);

  // Key and value are kept apart: moving a byte from one to the other changes the digest.
  SetDigest128 a;
  a.add("ab", "c");
  SetDigest128 b;
  b.add("a", "bc");
  CHECK(a != b);
  // The empty set, and removing what was added, give the same digest.
  SetDigest128 empty;
  SetDigest128 emptied;
  emptied.add("x", "y");
  emptied.remove("x", "y");
  CHECK(emptied == empty);
}

TEST_CASE("a set digest reads back from its hex digits and rejects anything else", "[digest]") {
  const SetDigest128 digest = digest_of(items(50));
  const std::string hex = digest.hex();
  REQUIRE(hex.size() == 32);
  const std::optional<SetDigest128> read = SetDigest128::from_hex(hex);
  REQUIRE(read);
  CHECK(*read == digest);
  CHECK(read->hex() == hex);
  // A carry across the two halves survives the round trip.
  SetDigest128 carried;
  for (int i = 0; i < 1000; ++i) {
    carried.add(std::to_string(i), "v");
  }
  REQUIRE(SetDigest128::from_hex(carried.hex()));
  CHECK(*SetDigest128::from_hex(carried.hex()) == carried);
  std::string upper = hex;
  upper[0] = 'A';
  std::string outside = hex;
  outside[5] = 'g';
  for (const std::string_view bad : {std::string_view(), std::string_view(hex).substr(1),
                                     std::string_view(upper), std::string_view(outside)}) {
    CHECK_FALSE(SetDigest128::from_hex(bad));
  }
}

}  // namespace digest_test
