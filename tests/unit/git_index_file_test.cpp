#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/git/index_file.hpp"
#include "core/git/repo.hpp"
#include "tests/unit/git_test_repo.hpp"

namespace git_index_file_test {

// The index reader against indexes libgit2 writes: every version, intent-to-add entries,
// conflicts, and layouts it must leave to libgit2.

namespace {

// path -> blob id of the stage-0 regular files libgit2 sees in the index file.
std::vector<std::pair<std::string, std::string>> libgit2_listing(const gv::test::TestRepo& repo) {
  git_index* raw = nullptr;
  REQUIRE(git_index_open(&raw, (repo.root() / ".git" / "index").c_str()) == 0);
  const gv::git::IndexPtr index{raw};
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < git_index_entrycount(index.get()); ++i) {
    const git_index_entry* entry = git_index_get_byindex(index.get(), i);
    if (GIT_INDEX_ENTRY_STAGE(entry) == 0 && (entry->mode & 0170000U) == 0100000U &&
        (entry->flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) == 0) {
      out.emplace_back(entry->path, gv::git::to_hex(entry->id));
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> reader_listing(const gv::git::IndexFile& index) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const gv::git::IndexFile::Entry& entry : index.entries()) {
    if (entry.is_committed_file()) {
      out.emplace_back(std::string(entry.path()), entry.oid_hex());
    }
  }
  return out;
}

void set_index_version(const gv::test::TestRepo& repo, unsigned version) {
  git_index* raw = nullptr;
  REQUIRE(git_repository_index(&raw, repo.raw()) == 0);
  const gv::git::IndexPtr index{raw};
  REQUIRE(git_index_read(index.get(), 1) == 0);
  REQUIRE(git_index_set_version(index.get(), version) == 0);
  REQUIRE(git_index_write(index.get()) == 0);
}

void fill(const gv::test::TestRepo& repo) {
  repo.write("a.txt", "a\n");
  repo.write(".memory/10-Memories/MEM-one.md", "one\n");
  repo.write(".memory/10-Memories/MEM-two.md", "two\n");
  repo.write(".memory/memory-index.json", "{}\n");
  repo.write(".memory/10-Memories/" + std::string(240, 'x') + ".md", "long name\n");
  repo.write("z/deep/er/file.txt", "z\n");
  repo.commit_all("files");
}

}  // namespace

TEST_CASE("the index reader lists what libgit2 lists, in every index version", "[git][index]") {
  for (const unsigned version : {2U, 3U, 4U}) {
    const gv::test::TestRepo repo;
    fill(repo);
    set_index_version(repo, version);
    const std::optional<gv::git::IndexFile> index =
        gv::git::IndexFile::read(repo.root() / ".git" / "index");
    REQUIRE(index);
    // libgit2, like git, writes version 3 only when an entry needs its extended flags.
    CHECK(index->version() == (version == 3 ? 2U : version));
    CHECK(reader_listing(*index) == libgit2_listing(repo));
    CHECK(index->with_prefix(".memory/").size() == 4);
    REQUIRE(index->find(".memory/10-Memories/MEM-two.md") != nullptr);
    CHECK(index->find(".memory/10-Memories/MEM-two.md")->oid_hex() ==
          repo.staged(".memory/10-Memories/MEM-two.md"));
    CHECK(index->find(".memory/10-Memories/MEM-three.md") == nullptr);
    // A slice of a version 2 or 3 index reads back on its own; version 4 has none.
    const auto range = index->with_prefix(".memory/");
    const std::optional<std::string_view> bytes = index->entry_bytes(range);
    if (version == 4) {
      CHECK_FALSE(bytes);
    } else {
      REQUIRE(bytes);
      const std::optional<gv::git::IndexFile> slice = gv::git::IndexFile::view_entries(
          *bytes, version, static_cast<std::uint32_t>(range.size()));
      REQUIRE(slice);
      CHECK(reader_listing(*slice).size() == 4);
      CHECK(slice->entries()[0].path() == range[0].path());
    }
  }
}

TEST_CASE("the repository lists the index through the reader and agrees with libgit2",
          "[git][index]") {
  const gv::test::TestRepo repo;
  fill(repo);
  repo.write(".memory/10-Memories/MEM-three.md", "three\n");
  repo.stage(".memory/10-Memories/MEM-three.md");
  const gv::git::Repo opened = gv::git::Repo::discover(repo.root());
  const std::vector<gv::SnapshotEntry> entries = opened.index_entries(".memory/10-Memories/");
  REQUIRE(entries.size() == 4);
  CHECK(entries[1].path == ".memory/10-Memories/MEM-three.md");
  CHECK(entries[1].oid == repo.staged(".memory/10-Memories/MEM-three.md"));
  CHECK(opened.index_blob_id("a.txt") == repo.staged("a.txt"));
  CHECK_FALSE(opened.index_blob_id("missing.txt"));
  REQUIRE(opened.index_file());

  // Staged again after the first read: the stat data changed, so the file is read again.
  repo.write("a.txt", "a changed\n");
  repo.stage("a.txt");
  CHECK(opened.index_blob_id("a.txt") == repo.staged("a.txt"));
}

TEST_CASE("intent-to-add entries and conflicts are not files a commit records", "[git][index]") {
  const gv::test::TestRepo repo;
  fill(repo);
  git_index* raw = nullptr;
  REQUIRE(git_repository_index(&raw, repo.raw()) == 0);
  const gv::git::IndexPtr index{raw};
  REQUIRE(git_index_read(index.get(), 1) == 0);
  // `git add -N later.txt`: an empty blob, flagged intent-to-add (needs version 3).
  git_index_entry later{};
  later.mode = GIT_FILEMODE_BLOB;
  later.path = "later.txt";
  later.flags_extended = GIT_INDEX_ENTRY_INTENT_TO_ADD;
  REQUIRE(git_blob_create_from_buffer(&later.id, repo.raw(), "", 0) == 0);
  REQUIRE(git_index_add(index.get(), &later) == 0);
  // A conflict on a.txt: stages 1 to 3 in place of stage 0.
  const git_index_entry* a = git_index_get_bypath(index.get(), "a.txt", 0);
  REQUIRE(a != nullptr);
  git_index_entry ancestor = *a;
  git_index_entry ours = *a;
  git_index_entry theirs = *a;
  REQUIRE(git_index_conflict_add(index.get(), &ancestor, &ours, &theirs) == 0);
  REQUIRE(git_index_write(index.get()) == 0);

  const std::optional<gv::git::IndexFile> file =
      gv::git::IndexFile::read(repo.root() / ".git" / "index");
  REQUIRE(file);
  CHECK(reader_listing(*file) == libgit2_listing(repo));
  CHECK(file->find("later.txt") != nullptr);
  CHECK_FALSE(file->find("later.txt")->is_committed_file());
  CHECK(file->find("a.txt") == nullptr);  // no stage-0 entry while in conflict
}

TEST_CASE("layouts the reader does not read are left to libgit2", "[git][index]") {
  const gv::test::TestRepo repo;
  fill(repo);
  const std::string bytes = repo.read(".git/index");
  REQUIRE(gv::git::IndexFile::parse(bytes));

  // Cut short, a wrong signature, an unknown version.
  CHECK_FALSE(gv::git::IndexFile::parse(bytes.substr(0, bytes.size() / 2)));
  CHECK_FALSE(gv::git::IndexFile::parse("DIRX" + bytes.substr(4)));
  std::string version_9 = bytes;
  version_9[7] = 9;
  CHECK_FALSE(gv::git::IndexFile::parse(version_9));

  // A split index: the `link` extension makes the entries a delta over another file.
  std::string split = bytes.substr(0, bytes.size() - 20);
  split += std::string("link") + std::string("\0\0\0\x14", 4) + std::string(20, '\0');
  split += std::string(20, '\0');
  CHECK_FALSE(gv::git::IndexFile::parse(split));
  // An optional extension (upper case) is skipped.
  std::string cached = bytes.substr(0, bytes.size() - 20);
  cached += std::string("XTRA") + std::string("\0\0\0\x02", 4) + "ab";
  cached += std::string(20, '\0');
  CHECK(gv::git::IndexFile::parse(cached));

  // The repository falls back to libgit2 and still lists the files.
  repo.write(".git/index", split);
  const gv::git::Repo opened = gv::git::Repo::discover(repo.root());
  CHECK_FALSE(opened.index_file());
}

TEST_CASE("a repository without an index file lists nothing", "[git][index]") {
  const gv::test::TestRepo repo;
  const std::optional<gv::git::IndexFile> index =
      gv::git::IndexFile::read(repo.root() / ".git" / "index");
  REQUIRE(index);
  CHECK(index->entries().empty());
  CHECK(gv::git::Repo::discover(repo.root()).index_entries("").empty());
}

}  // namespace git_index_file_test
