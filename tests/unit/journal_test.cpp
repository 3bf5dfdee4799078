#include "core/git/journal.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "core/error.hpp"
#include "core/json/parse.hpp"
#include "tests/unit/git_test_repo.hpp"

namespace journal_test {

using gv::git::IndexSlot;
using gv::git::Journal;
using gv::git::JournalPath;
using gv::test::TestRepo;

TEST_CASE("a journal reads back exactly, whatever bytes its paths hold", "[journal]") {
  const TestRepo fixture;
  const std::filesystem::path git_dir = fixture.root() / ".git";
  Journal journal;
  journal.subject = "vault(purge): tombstone 2 memories % 100";
  journal.ref = "refs/heads/main";
  journal.old_head = std::string(40, 'a');
  journal.new_head = std::string(40, 'b');
  journal.index_path = (git_dir / "index").string();
  journal.index_lock_inode = 1234;
  journal.created_dirs = {"specs", "a dir/with space"};
  JournalPath odd;
  odd.path = ".memory/10-Memories/MEM-new\nline \\ tab\t\xff%.md";
  odd.new_blob = std::string(40, 'c');
  odd.executable = true;
  odd.temp = "w0";
  odd.temp_inode = 99;
  odd.old_inode = 77;
  odd.backup = "b0";
  odd.old_index = IndexSlot{std::string(40, 'd'), 0100644};
  odd.new_index = IndexSlot{std::string(40, 'c'), 0100755};
  JournalPath deleted;
  deleted.path = "memory/x.md";
  journal.paths = {odd, deleted};
  journal.consumes = gv::util::FilePrefix{(git_dir / "git-vault" / "a log, odd\n").string(), 4321,
                                          57, std::string(32, 'e')};

  gv::git::write_journal(git_dir, journal);
  const std::optional<Journal> read = gv::git::read_journal(git_dir);
  REQUIRE(read.has_value());
  CHECK(read->subject == journal.subject);
  CHECK(read->ref == journal.ref);
  CHECK(read->old_head == journal.old_head);
  CHECK(read->new_head == journal.new_head);
  CHECK(read->index_path == journal.index_path);
  CHECK(read->index_lock_inode == 1234);
  CHECK(read->created_dirs == journal.created_dirs);
  REQUIRE(read->paths.size() == 2);
  CHECK(read->paths[0].path == odd.path);
  CHECK(read->paths[0].new_blob == odd.new_blob);
  CHECK(read->paths[0].executable);
  CHECK(read->paths[0].temp_inode == 99);
  CHECK(read->paths[0].old_inode == 77);
  CHECK(read->paths[0].backup == "b0");
  CHECK(read->paths[0].old_index == odd.old_index);
  CHECK(read->paths[0].new_index == odd.new_index);
  CHECK_FALSE(read->paths[1].new_blob.has_value());
  CHECK_FALSE(read->paths[1].old_inode.has_value());
  CHECK(read->paths[1].temp.empty());
  CHECK(read->consumes == journal.consumes);

  gv::git::remove_journal(git_dir);
  CHECK_FALSE(gv::git::read_journal(git_dir).has_value());
}

TEST_CASE("a journal cut short or foreign is an error naming it", "[journal]") {
  const TestRepo fixture;
  const std::filesystem::path git_dir = fixture.root() / ".git";
  fixture.write(".git/vault-journal", "git-vault journal 1\nsubject x\n");
  CHECK_THROWS_WITH(gv::git::read_journal(git_dir),
                    Catch::Contains("vault-journal") && Catch::Contains("cut short"));
  fixture.write(".git/vault-journal", "something else\n");
  CHECK_THROWS_WITH(gv::git::read_journal(git_dir), Catch::Contains("vault-journal:1:"));
}

TEST_CASE("JSON deeper than the limit is refused before parsing, with its line", "[json]") {
  using gv::json_text::too_deep;
  CHECK_FALSE(too_deep("[[[]]]", 3).has_value());
  CHECK(too_deep("[[[[]]]]", 3) == 3u);
  CHECK_FALSE(too_deep("[\"[[[[[[\"]", 2).has_value());    // brackets in strings do not count
  CHECK_FALSE(too_deep("[\"\\\"[[[[\"]", 2).has_value());  // nor after an escaped quote
  const std::string deep =
      "{\n\"a\":\n" + std::string(100'000, '[') + std::string(100'000, ']') + "}";
  const auto parsed = gv::json_text::parse<nlohmann::json>(deep);
  const auto* failure = std::get_if<gv::json_text::ParseFailure>(&parsed);
  REQUIRE(failure != nullptr);
  CHECK(failure->line == 3);
  CHECK_THAT(failure->reason, Catch::Contains("nested more than 512"));
}

TEST_CASE("a number that overflows a double is a failure on its own line", "[json]") {
  const auto parsed = gv::json_text::parse<nlohmann::ordered_json>(
      "{\n  \"note\": \"1e400 in a string\",\n  \"version\": 1e400\n}\n");
  const auto* failure = std::get_if<gv::json_text::ParseFailure>(&parsed);
  REQUIRE(failure != nullptr);
  CHECK(failure->line == 3);
  CHECK(failure->reason == "number overflow parsing '1e400'");
  CHECK(gv::json_text::format_failure("x.json", *failure) ==
        "x.json:3: invalid JSON: number overflow parsing '1e400'");
}

TEST_CASE("a syntax error keeps nlohmann's reason without its prefix", "[json]") {
  const auto parsed = gv::json_text::parse<nlohmann::json>("{\n\"a\": tru\n}");
  const auto* failure = std::get_if<gv::json_text::ParseFailure>(&parsed);
  REQUIRE(failure != nullptr);
  CHECK(failure->line == 2);
  CHECK_THAT(failure->reason, !Catch::Contains("json.exception"));
}

}  // namespace journal_test
