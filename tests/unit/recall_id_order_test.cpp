#include <catch2/catch.hpp>

#include "core/recall/id_order.hpp"

namespace recall_id_order_test {

namespace {

using gv::recall::ParsedFile;

ParsedFile parse(std::string path, std::string bytes) {
  gv::recall::ManagedFile file{path, gv::recall::display_path(path), *gv::recall::tier_of(path)};
  return gv::recall::parse_file(std::move(file), std::move(bytes));
}

const std::vector<ParsedFile>& files() {
  static const std::vector<ParsedFile> parsed{
      parse("CLAUDE.local.md", "- a ^trf000000000\n- untagged\n- b ^tr000000000a\n"),
      parse("memory/registers/people.md", "- c ^tr0000000009\n- d ^trf000000000\n"),
      parse("memory/archive/2025/q4/old.md", "- e ^tr000000000a\n- f ^tr1000000000\n"),
  };
  return parsed;
}

}  // namespace

TEST_CASE("tagged entries come sorted by id as bytes sort, and one id's lines in scan order",
          "[recall][id-order]") {
  const auto refs = gv::recall::tagged_by_id(files());
  std::vector<std::string> seen;
  for (const auto& ref : refs) {
    const auto& entry = files()[ref.file].entries[ref.entry];
    CHECK(gv::recall::id_view(gv::recall::id_of_key(ref.key)) == entry.id);
    seen.push_back(entry.text);
  }
  // tr0000000009 < tr000000000a < tr1000000000 < trf000000000; b before e, a before d.
  CHECK(seen == std::vector<std::string>{"c", "b", "e", "f", "a", "d"});
}

TEST_CASE("an id's number spells the id back", "[recall][id-order]") {
  CHECK(gv::recall::id_view(gv::recall::id_of_key(0)) == "tr0000000000");
  CHECK(gv::recall::id_view(gv::recall::id_of_key(0xffffffffffULL)) == "trffffffffff");
  CHECK(gv::recall::id_view(gv::recall::id_of_key(0x4a9c2e81b7ULL)) == "tr4a9c2e81b7");
}

TEST_CASE("each entry's record is the one a lookup by its id finds", "[recall][id-order]") {
  gv::recall::Metadata metadata;
  // Keys that are not ids sort among the ids and belong to no entry.
  for (const char* key : {"^tr000000000a", "hello", "tr000000000a", "tr0000000009x", "tr1000000000",
                          "trf000000000", "zz"}) {
    metadata[key].status = key;
  }
  const auto records = gv::recall::records_by_entry(files(), metadata);
  REQUIRE(records.size() == files().size());
  int found = 0;
  for (std::size_t f = 0; f < files().size(); ++f) {
    REQUIRE(records[f].size() == files()[f].entries.size());
    for (std::size_t e = 0; e < records[f].size(); ++e) {
      const auto& entry = files()[f].entries[e];
      const auto it = entry.id.empty() ? metadata.end() : metadata.find(entry.id);
      const gv::recall::Record* expected = it == metadata.end() ? nullptr : &it->second;
      CHECK(records[f][e] == expected);
      found += expected != nullptr ? 1 : 0;
    }
  }
  CHECK(found == 5);  // tr0000000009 has no record; the untagged entry has none
}

}  // namespace recall_id_order_test
