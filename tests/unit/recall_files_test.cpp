#include <catch2/catch.hpp>
#include <map>

#include "core/recall/files.hpp"
#include "core/recall/scan.hpp"

namespace recall_files_test {

namespace {

using gv::recall::Tier;

// Files held in memory, listed in path byte order as the Snapshot contract promises.
class FakeSnapshot : public gv::Snapshot {
 public:
  explicit FakeSnapshot(std::map<std::string, std::string> files) : m_files(std::move(files)) {}

  std::vector<gv::SnapshotEntry> list(std::string_view prefix) const override {
    std::vector<gv::SnapshotEntry> out;
    for (const auto& [path, bytes] : m_files) {
      if (std::string_view{path}.starts_with(prefix)) {
        out.push_back({path, std::string(40, '0')});
      }
    }
    return out;
  }
  std::optional<std::string> read(std::string_view path) const override {
    const auto it = m_files.find(std::string{path});
    return it == m_files.end() ? std::nullopt : std::optional<std::string>{it->second};
  }
  std::string describe() const override { return "fake"; }

 private:
  std::map<std::string, std::string> m_files;
};

std::vector<std::string> display_paths(const std::vector<gv::recall::ManagedFile>& files) {
  std::vector<std::string> out;
  for (const auto& file : files) {
    out.push_back(file.display_path);
  }
  return out;
}

}  // namespace

TEST_CASE("tier comes from the file's location", "[recall][files]") {
  CHECK(gv::recall::tier_of("CLAUDE.local.md") == Tier::working);
  CHECK(gv::recall::tier_of("memory/registers/people.md") == Tier::register_);
  CHECK(gv::recall::tier_of("memory/archive/ARCHIVE.md") == Tier::archive);
  CHECK(gv::recall::tier_of("memory/archive/a/b/c.md") == Tier::archive);
}

TEST_CASE("unmanaged paths have no tier", "[recall][files]") {
  SECTION("registers are not recursive") {
    CHECK_FALSE(gv::recall::tier_of("memory/registers/sub/x.md"));
  }
  SECTION(".md is case-sensitive") {
    CHECK_FALSE(gv::recall::tier_of("memory/registers/NOTES.MD"));
  }
  SECTION("dot-files and dot-directories are skipped") {
    CHECK_FALSE(gv::recall::tier_of("memory/registers/.draft.md"));
    CHECK_FALSE(gv::recall::tier_of("memory/archive/.old/x.md"));
    CHECK_FALSE(gv::recall::tier_of("memory/archive/projects/.gitkeep"));
  }
  SECTION("daily logs, schema and metadata are not managed") {
    CHECK_FALSE(gv::recall::tier_of("memory/daily/2026-01-05.md"));
    CHECK_FALSE(gv::recall::tier_of("memory/SCHEMA.md"));
    CHECK_FALSE(gv::recall::tier_of("memory/.recall/metadata.json"));
    CHECK_FALSE(gv::recall::tier_of("sub/CLAUDE.local.md"));
    CHECK_FALSE(gv::recall::tier_of("memory/registers/notes.txt"));
  }
}

TEST_CASE("display paths drop the leading memory folder", "[recall][files]") {
  CHECK(gv::recall::display_path("CLAUDE.local.md") == "CLAUDE.local.md");
  CHECK(gv::recall::display_path("memory/registers/preferences.md") == "registers/preferences.md");
  CHECK(gv::recall::display_path("memory/archive/2025/q4/old.md") == "archive/2025/q4/old.md");
}

TEST_CASE("managed files come in scan order: working, registers, archive", "[recall][files]") {
  const FakeSnapshot snapshot({
      {"memory/archive/b.md", ""},
      {"memory/archive/a/b/c.md", ""},
      {"memory/registers/projects.md", ""},
      {"memory/registers/_inbox.md", ""},
      {"memory/registers/sub/x.md", ""},
      {"memory/registers/NOTES.MD", ""},
      {"memory/registers/.draft.md", ""},
      {"memory/daily/2026-01-01.md", ""},
      {"CLAUDE.local.md", ""},
      {"CLAUDE.local.md.bak", ""},
      {"README.md", ""},
  });
  const auto files = gv::recall::list_managed_files(snapshot);
  CHECK(display_paths(files) == std::vector<std::string>{"CLAUDE.local.md", "registers/_inbox.md",
                                                         "registers/projects.md",
                                                         "archive/a/b/c.md", "archive/b.md"});
  REQUIRE(files.size() == 5);
  CHECK(files[0].tier == Tier::working);
  CHECK(files[1].path == "memory/registers/_inbox.md");
  CHECK(files[1].tier == Tier::register_);
  CHECK(files[3].tier == Tier::archive);
}

TEST_CASE("a project below the repository root is found through its prefix", "[recall][files]") {
  const FakeSnapshot snapshot({
      {"CLAUDE.local.md", ""},
      {"proj/CLAUDE.local.md", ""},
      {"proj/memory/registers/a.md", ""},
  });
  const auto files = gv::recall::list_managed_files(snapshot, "proj/");
  REQUIRE(files.size() == 2);
  CHECK(files[0].path == "proj/CLAUDE.local.md");
  CHECK(files[0].display_path == "CLAUDE.local.md");
  CHECK(files[1].display_path == "registers/a.md");
}

TEST_CASE("scanning parses every managed file in scan order", "[recall][files]") {
  const FakeSnapshot snapshot({
      {"CLAUDE.local.md", "# Working Memory\n- one ^tr0000000001\n- two\n"},
      {"memory/registers/people.md", "- Sam is the PM\n"},
      {"memory/daily/2026-01-01.md", "- never an entry\n"},
  });
  const auto parsed = gv::recall::scan_managed_files(snapshot);
  REQUIRE(parsed.size() == 2);
  CHECK(parsed[0].entries.size() == 2);
  CHECK(parsed[1].file.display_path == "registers/people.md");
  REQUIRE(parsed[1].entries.size() == 1);
  CHECK(parsed[1].entries[0].text == "Sam is the PM");
}

TEST_CASE("tier names round-trip", "[recall][files]") {
  for (const Tier tier : {Tier::working, Tier::register_, Tier::archive}) {
    CHECK(gv::recall::parse_tier_name(gv::recall::tier_name(tier)) == tier);
  }
  CHECK(gv::recall::tier_name(Tier::register_) == "register");
  CHECK_FALSE(gv::recall::parse_tier_name("registers/decisions.md"));
}

}  // namespace recall_files_test
