#include "core/vault/id_naming.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/dates.hpp"

namespace id_naming_test {

using gv::detect_id_naming;
using gv::IdStyle;
using gv::name_memory;
using gv::slug_words;

namespace {

const gv::Date k_today = *gv::parse_date("2026-11-30");

bool none(std::string_view /*id*/) { return false; }

}  // namespace

TEST_CASE("a vault's naming is read from the ids it has", "[id-naming]") {
  CHECK(detect_id_naming({}).style == IdStyle::slug);
  CHECK(detect_id_naming({"MEM-zed-agent-panel-modes", "MEM-agent-system-architecture",
                          "MEM-install-wizard-scripts"})
            .style == IdStyle::slug);
  CHECK(detect_id_naming({"MEM-pattern-orchestrator-porting", "MEM-insight-command-skill-tool",
                          "MEM-config-nextcord-discord-nixos", "MEM-plan-delegation-required"})
            .style == IdStyle::category_slug);
  const gv::IdNaming dated = detect_id_naming({"MEM-2026-03-05-001-clean-break-command-renaming",
                                               "MEM-2026-03-05-002-metadata-delegation-pattern"});
  CHECK(dated.style == IdStyle::dated);
  CHECK(dated.number_width == 3);
  const gv::IdNaming numbered = detect_id_naming({"MEM-001", "MEM-002", "MEM-0003"});
  CHECK(numbered.style == IdStyle::numbered);
  CHECK(numbered.number_width == 4);
  // A mixed vault goes by its majority.
  CHECK(detect_id_naming({"MEM-001", "MEM-002", "MEM-zed-keys", "MEM-zed-settings",
                          "MEM-toolchain-dependencies"})
            .style == IdStyle::slug);
}

TEST_CASE("an id is made of whole words that say something", "[id-naming]") {
  CHECK(slug_words("Rename commands in the CLI") ==
        std::vector<std::string>{"rename", "commands", "cli"});
  CHECK(slug_words("Don't cut words: service-worker lifetimes in MV3") ==
        std::vector<std::string>{"dont", "cut", "words", "service"});
  CHECK(slug_words("The and of") == std::vector<std::string>{"the", "and", "of"});
}

TEST_CASE("a new id follows the vault's style", "[id-naming]") {
  const std::vector<std::string> slugs{"MEM-zed-keybindings-scheme"};
  CHECK(name_memory(detect_id_naming(slugs), slugs, "Rename commands in the CLI", "WORKFLOW",
                    k_today, none) == "MEM-rename-commands-cli");
  CHECK(name_memory(detect_id_naming(slugs), slugs, "Service workers in MV3", "INSIGHT", k_today,
                    none) == "MEM-service-workers-mv3");
  const std::vector<std::string> categories{"MEM-pattern-orchestrator-porting",
                                            "MEM-insight-command-skill-tool"};
  CHECK(name_memory(detect_id_naming(categories), categories, "Gate out before the write",
                    "PATTERN", k_today, none) == "MEM-pattern-gate-write");
  const std::vector<std::string> dated{"MEM-2026-11-30-001-clean-break",
                                       "MEM-2026-11-30-002-metadata-delegation",
                                       "MEM-2026-03-05-007-older"};
  CHECK(name_memory(detect_id_naming(dated), dated, "Rename commands in the CLI", "WORKFLOW",
                    k_today, none) == "MEM-2026-11-30-003-rename-commands-cli");
  const std::vector<std::string> other_day{"MEM-2026-03-05-007-older"};
  CHECK(name_memory(detect_id_naming(other_day), other_day, "Rename commands", "WORKFLOW", k_today,
                    none) == "MEM-2026-11-30-001-rename-commands");
  const std::vector<std::string> numbered{"MEM-001", "MEM-005"};
  CHECK(name_memory(detect_id_naming(numbered), numbered, "Anything", "INSIGHT", k_today, none) ==
        "MEM-006");
  // A taken id gets a suffix.
  CHECK(name_memory(detect_id_naming(slugs), slugs, "Zed keybindings scheme", "CONFIG", k_today,
                    [](std::string_view id) { return id == "MEM-zed-keybindings-scheme"; }) ==
        "MEM-zed-keybindings-scheme-2");
}

}  // namespace id_naming_test
