#pragma once

#include <nlohmann/json.hpp>

#include "core/events/event.hpp"
#include "core/events/history.hpp"

// What the telemetry sub-modes read from the agent's records and write into the vault passes the
// one secret detector (doc/decisions.md, D24; doc/secrets.md): a value that looks like a
// credential is replaced by `[secret withheld: <kind>]`, the text around it kept. Applied where
// the records are read (core/distill/telemetry_support.hpp), so nothing printed or written
// downstream ever held the value, and again where memories and logs are written.
namespace gv::distill {

// Every string inside `value`, at any depth.
void withhold_secrets(nlohmann::ordered_json& value);

// An event's free text: `message`, the strings of `detail`, and the same fields of `raw`.
void withhold_secrets(events::Event& event);

// A prompt's text as typed.
void withhold_secrets(events::Prompt& prompt);

}  // namespace gv::distill
