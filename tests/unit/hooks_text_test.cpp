#include <catch2/catch.hpp>
#include <string>

#include "core/hooks/gitattributes.hpp"
#include "core/hooks/merge_drivers.hpp"
#include "core/hooks/skip.hpp"

namespace hooks_text_test {

using gv::hooks::ensure_gitattributes;

namespace {

const std::string k_all_lines =
    ".memory/memory-index.json merge=vault-generated\n"
    ".memory/20-Indices/index.md merge=vault-generated\n"
    ".memory/10-Memories/README.md merge=vault-generated\n"
    ".memory/distill-log.json merge=vault-log\n"
    "memory/.recall/metadata.json merge=vault-recall-metadata\n"
    "specs/state.json merge=vault-state\n";

}  // namespace

TEST_CASE("an empty .gitattributes gets every driver line", "[hooks]") {
  CHECK(ensure_gitattributes("") == k_all_lines);
}

TEST_CASE("ensure_gitattributes is idempotent and keeps the user's lines", "[hooks]") {
  const std::string existing = "*.png binary\n";
  const std::string once = ensure_gitattributes(existing);
  CHECK(once == existing + k_all_lines);
  CHECK(ensure_gitattributes(once) == once);
}

TEST_CASE("ensure_gitattributes appends only missing lines, after a missing final newline",
          "[hooks]") {
  const std::string existing =
      "*.sh eol=lf\n.memory/distill-log.json   merge=vault-log  \n*.md text";
  CHECK(ensure_gitattributes(existing) ==
        existing + "\n" +
            ".memory/memory-index.json merge=vault-generated\n"
            ".memory/20-Indices/index.md merge=vault-generated\n"
            ".memory/10-Memories/README.md merge=vault-generated\n"
            "memory/.recall/metadata.json merge=vault-recall-metadata\n"
            "specs/state.json merge=vault-state\n");
}

TEST_CASE("a CRLF .gitattributes gets CRLF lines", "[hooks]") {
  const std::string result = ensure_gitattributes("*.png binary\r\n");
  CHECK(result.starts_with("*.png binary\r\n.memory/memory-index.json merge=vault-generated\r\n"));
  CHECK(result.ends_with("specs/state.json merge=vault-state\r\n"));
  CHECK(ensure_gitattributes(result) == result);
}

TEST_CASE("one attribute line is added once and removed alone, blanks and CRLF as written",
          "[hooks]") {
  const std::string line = ".memory/10-Memories/*.md diff=vault-memory";
  const std::string with = gv::hooks::with_attribute_line("*.png binary\r\n", line);
  CHECK(with == "*.png binary\r\n" + line + "\r\n");
  CHECK(gv::hooks::with_attribute_line(with, line) == with);
  CHECK(gv::hooks::without_attribute_line(with, line) == "*.png binary\r\n");
  CHECK(gv::hooks::without_attribute_line("a x\n.memory/10-Memories/*.md   diff=vault-memory\nb y",
                                          line) == "a x\nb y");
  CHECK(gv::hooks::without_attribute_line("", line).empty());
}

TEST_CASE("driver commands pass git's placeholders to the hidden merge-driver command", "[hooks]") {
  CHECK(gv::hooks::driver_command(gv::hooks::k_merge_drivers[1]) ==
        "git vault merge-driver log -- %O %A %B %P");
}

TEST_CASE("GIT_VAULT_SKIP is a comma list with blanks trimmed and all recognised", "[hooks]") {
  const auto spec = gv::hooks::parse_skip(" stale-index, missing-id ,,schema");
  CHECK_FALSE(spec.all);
  CHECK(spec.checks == std::set<std::string>{"missing-id", "schema", "stale-index"});
  CHECK(gv::hooks::parse_skip("").checks.empty());
  CHECK(gv::hooks::parse_skip("schema,all").all);
}

}  // namespace hooks_text_test
