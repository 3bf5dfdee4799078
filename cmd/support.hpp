#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/dates.hpp"
#include "core/git/repo.hpp"

namespace gv::cmd {

struct Globals;

// The repository around the current directory. Throws gv::Error when there is none.
[[nodiscard]] git::Repo open_repo();

// Today and now for this run (flags, then GIT_VAULT_TODAY / GIT_VAULT_NOW, then the clock).
[[nodiscard]] Clock clock_of(const Globals& globals);

// Prints one JSON document and a newline on stdout (the `--json` contract).
void print_json(const nlohmann::ordered_json& document);
void print_json(const nlohmann::json& document);

// Diagnostics on stderr, prefixed like every git-vault message.
void warn(std::string_view message);
void note(std::string_view message);  // -v explanations

// Whether stdin and stdout are both terminals, i.e. a person can answer a prompt.
[[nodiscard]] bool interactive();

}  // namespace gv::cmd
