#pragma once

#include <optional>
#include <string>

#include "core/distill/telemetry_inputs.hpp"
#include "core/git/repo.hpp"

namespace gv::cmd {

// The telemetry sub-modes' inputs for `repo` (doc/telemetry.md): the event store of its work
// tree and the prompt history at `--history`, git config `vault.history` or
// `~/.claude/history.jsonl`, each read on demand with invalid lines reported once on stderr;
// the built-in term primitives and memory writer.
[[nodiscard]] distill::TelemetryInputs telemetry_inputs(const git::Repo& repo,
                                                        const std::optional<std::string>& history);

}  // namespace gv::cmd
