#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "core/git/blob_hasher.hpp"
#include "core/git/loose_object.hpp"
#include "core/git/repo.hpp"
#include "core/snapshot/index_snapshot.hpp"
#include "tests/unit/git_test_repo.hpp"

namespace git_blob_test {

using gv::git::BlobHasher;
using gv::git::hash_blob;
using gv::test::TestRepo;

// Blob ids as `git hash-object` prints them.
TEST_CASE("blob ids are git's, whole or in pieces", "[git][blob]") {
  CHECK(hash_blob("") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  CHECK(hash_blob("hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a");

  BlobHasher pieces(6);
  pieces.update("hel");
  pieces.update("");
  pieces.update("lo\n");
  CHECK(pieces.finish() == "ce013625030ba8dba906f756967f9e9ca394464a");

  const std::string big(3 * 1024 * 1024 + 7, 'x');
  BlobHasher halves(big.size());
  halves.update(std::string_view(big).substr(0, 1000));
  halves.update(std::string_view(big).substr(1000));
  CHECK(halves.finish() == hash_blob(big));
}

TEST_CASE("a blob hasher fed the wrong number of bytes refuses to answer", "[git][blob]") {
  BlobHasher short_fed(5);
  short_fed.update("abc");
  CHECK_THROWS_AS(short_fed.finish(), gv::Error);
}

TEST_CASE("the head of a loose blob is read without inflating the rest", "[git][blob]") {
  const TestRepo fixture;
  std::string json = "{\n  \"generated_at\": \"2026-11-30\",\n";
  json += std::string(200'000, ' ');
  json += "}\n";
  fixture.write(".memory/memory-index.json", json);
  fixture.stage(".memory/memory-index.json");
  const gv::git::Repo repo = gv::git::Repo::discover(fixture.root());
  const std::string oid = hash_blob(json);
  const auto objects = fixture.root() / ".git" / "objects";

  CHECK(gv::git::loose_blob_head(objects, oid, 20) == json.substr(0, 20));
  CHECK(gv::git::loose_blob_head(objects, oid, json.size() + 10) == json);
  CHECK(repo.read_blob_head(oid, 33) == json.substr(0, 33));
  CHECK(gv::IndexSnapshot(repo).read_head(".memory/memory-index.json", 16) == json.substr(0, 16));
  CHECK_FALSE(gv::IndexSnapshot(repo).read_head(".memory/absent.json", 16));

  SECTION("not a loose object there: the caller falls back to libgit2") {
    CHECK_FALSE(gv::git::loose_blob_head(objects, hash_blob("never written"), 20));
    CHECK_FALSE(gv::git::loose_blob_head(objects, "not an id", 20));
  }
  SECTION("a damaged loose object is not trusted") {
    const auto file = objects / oid.substr(0, 2) / oid.substr(2);
    std::filesystem::permissions(file, std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::add);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << "garbage, not zlib";
    CHECK_FALSE(gv::git::loose_blob_head(objects, oid, 20));
  }
}

}  // namespace git_blob_test
