#include <catch2/catch.hpp>

#include "core/git/signature.hpp"
#include "core/plan.hpp"

namespace git_trailers_test {

using gv::Plan;
using gv::Trailer;

TEST_CASE("a plan's message is subject, body and trailers in fixed order", "[plan]") {
  Plan plan;
  plan.subject = "vault(purge): remove 2 stale memories";
  plan.body = "Removed MEM-1 and MEM-2.\n\n";
  plan.memories = {"MEM-1", "MEM-2"};
  plan.log_id = "dl-20261130-01";
  plan.action = "purge";
  CHECK(plan.message() ==
        "vault(purge): remove 2 stale memories\n"
        "\n"
        "Removed MEM-1 and MEM-2.\n"
        "\n"
        "Vault-Action: purge\n"
        "Vault-Log-Id: dl-20261130-01\n"
        "Vault-Memories: MEM-1, MEM-2\n");
  CHECK(gv::parse_trailers(plan.message()) == plan.trailers());

  plan.body.clear();
  plan.memories.clear();
  CHECK(plan.message() ==
        "vault(purge): remove 2 stale memories\n\nVault-Action: purge\nVault-Log-Id: "
        "dl-20261130-01\n");
}

TEST_CASE("a long Vault-Memories trailer is folded after commas and reads back whole", "[plan]") {
  Plan plan;
  plan.subject = "vault(purge): tombstone 400 memories";
  plan.action = "purge";
  for (int i = 0; i < 400; ++i) {
    plan.memories.push_back("MEM-config-polsi-" + std::to_string(100000 + i));
  }
  // One id longer than a line is kept whole, on a line of its own.
  plan.memories.push_back("MEM-" + std::string(100, 'x'));
  plan.memories.push_back("MEM-last");
  const std::string message = plan.message();
  std::size_t lines = 0;
  std::size_t start = 0;
  for (std::size_t end = message.find('\n'); end != std::string::npos;
       start = end + 1, end = message.find('\n', start)) {
    const std::string_view line(message.data() + start, end - start);
    ++lines;
    if (line.find("xxxx") == std::string_view::npos) {
      CHECK(line.size() <= gv::k_trailer_width);
    } else {
      CHECK(line == " MEM-" + std::string(100, 'x') + ",");
    }
    if (line.starts_with(" ")) {
      CHECK(line.size() > 1);
    }
  }
  CHECK(lines > 100);
  CHECK(message.ends_with("MEM-last\n"));
  CHECK(gv::parse_trailers(message) == plan.trailers());
  REQUIRE(gv::find_trailer(gv::parse_trailers(message), "Vault-Memories"));
  CHECK(*gv::find_trailer(gv::parse_trailers(message), "Vault-Memories") ==
        plan.trailers().back().value);
}

TEST_CASE("a plan records writes and deletions by path", "[plan]") {
  Plan plan;
  CHECK(plan.empty());
  plan.write("b.md", "B");
  plan.remove("a.md");
  plan.write("b.md", "B2");
  REQUIRE(plan.changes.size() == 2);
  CHECK(plan.changes.begin()->first == "a.md");
  CHECK_FALSE(plan.changes.at("a.md").has_value());
  CHECK(plan.changes.at("b.md") == "B2");
}

TEST_CASE("trailers are read only from a final trailer paragraph", "[plan]") {
  CHECK(gv::parse_trailers("subject only\n").empty());
  CHECK(gv::parse_trailers("Vault-Action: purge\n").empty());  // a subject is never a trailer
  CHECK(gv::parse_trailers("subject\n\nJust prose: with a colon in it.\n").empty());
  CHECK(gv::parse_trailers("subject\n\nVault-Action: purge\nnot a trailer line\n").empty());
  CHECK(gv::parse_trailers("subject\r\n\r\nVault-Action: gc\r\n\r\n\r\n") ==
        std::vector<Trailer>{{"Vault-Action", "gc"}});
  CHECK(gv::parse_trailers("subject\n\nVault-Memories: MEM-1,\n  MEM-2\n# comment\n") ==
        std::vector<Trailer>{{"Vault-Memories", "MEM-1, MEM-2"}});
  CHECK(gv::parse_trailers("s\n\nVault-Action: a\n\nbody\n\nSigned-off-by: X <x@y>\n") ==
        std::vector<Trailer>{{"Signed-off-by", "X <x@y>"}});

  const auto trailers = gv::parse_trailers("s\n\nvault-log-id: dl-1\n");
  CHECK(gv::find_trailer(trailers, "Vault-Log-Id") == "dl-1");
  CHECK_FALSE(gv::find_trailer(trailers, "Vault-Action").has_value());
}

TEST_CASE("git dates in the formats git accepts are read with their zone", "[git]") {
  using gv::git::parse_git_date;
  // 2026-11-30T12:00:00Z is 1796040000 seconds after the epoch (date -u -d ... +%s).
  const auto iso = parse_git_date("2026-11-30T12:00:00Z");
  REQUIRE(iso.has_value());
  CHECK(iso->seconds == 1'796'040'000);
  CHECK(iso->offset_minutes == 0);

  const auto zoned = parse_git_date("2026-11-30 13:00:00 +01:00");
  REQUIRE(zoned.has_value());
  CHECK(zoned->seconds == 1'796'040'000);
  CHECK(zoned->offset_minutes == 60);

  const auto raw = parse_git_date("@1700000000 -0130");
  REQUIRE(raw.has_value());
  CHECK(raw->seconds == 1'700'000'000);
  CHECK(raw->offset_minutes == -90);
  CHECK(parse_git_date("1700000000")->seconds == 1'700'000'000);

  const auto rfc = parse_git_date("Mon, 30 Nov 2026 14:00:00 +0200");
  REQUIRE(rfc.has_value());
  CHECK(rfc->seconds == 1'796'040'000);
  CHECK(rfc->offset_minutes == 120);

  CHECK_FALSE(parse_git_date("2026-02-30T00:00:00Z").has_value());
  CHECK_FALSE(parse_git_date("yesterday").has_value());
  CHECK_FALSE(parse_git_date("").has_value());
  CHECK_FALSE(parse_git_date("2026-11-30T12:00:00Z trailing").has_value());
}

}  // namespace git_trailers_test
