#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/distill/finish.hpp"
#include "core/distill/summarize.hpp"
#include "core/distill/vault_state.hpp"

namespace gv {
class Snapshot;
}

namespace gv::distill {

struct TelemetryInputs;

// Candidates described when they are shown or acted on, not held described: a sub-mode that
// can list hundreds of thousands of them (merge's pairs) keeps what they are made from once.
class CandidateSource {
 public:
  CandidateSource() = default;
  CandidateSource(const CandidateSource&) = delete;
  CandidateSource& operator=(const CandidateSource&) = delete;
  virtual ~CandidateSource() = default;
  [[nodiscard]] virtual std::string label(std::size_t index) const = 0;
  [[nodiscard]] virtual std::string details(std::size_t index) const = 0;
  [[nodiscard]] virtual nlohmann::ordered_json json(std::size_t index) const = 0;
};

// One thing the user can select at the MANDATORY STOP: a memory to tombstone, a pair to
// merge, a fix to apply.
struct Candidate {
  std::string key;      // what --select names: a memory id, or `PRIMARY+SECONDARY` for a pair
  std::string label;    // one line for the prompt, e.g. `MEM-x (score 0.82, past TTL by 30d)`
  std::string details;  // further lines shown under the label (may be empty)
  nlohmann::ordered_json json;  // this candidate in the `--dry-run --json` document
  // Set instead of label, details and json: the candidate is `source`'s `index`th.
  std::shared_ptr<const CandidateSource> source;
  std::size_t index = 0;

  [[nodiscard]] std::string shown_label() const { return source ? source->label(index) : label; }
  [[nodiscard]] std::string shown_details() const {
    return source ? source->details(index) : details;
  }
  // This candidate in the `--dry-run --json` document.
  [[nodiscard]] nlohmann::ordered_json document() const {
    return source ? source->json(index) : json;
  }
};

// Steps 1-3 of the skeleton: the edge-case checks, the candidates and what a dry run shows.
struct CandidateSet {
  // Set when an edge-case check stops the run (e.g. `No purge candidates found. ...`): the
  // command prints it and exits 0 without a prompt or a change.
  std::optional<std::string> stop_message;
  std::vector<Candidate> candidates;    // in presentation order
  std::string json_key = "candidates";  // `pairs` for merge
  std::string dry_run_text;             // the human dry run (Markdown); candidates listed
  std::string question;                 // the prompt's question
  std::string none_selected_message;    // e.g. `No memories selected for purge. ...`
  // What the run changes without a selection: refine's Tier 1 fixes, a sanctioned exemption
  // from the MANDATORY STOP (D6), rendered for the user; empty when there is none. When set,
  // the skeleton shows it (before the prompt on a terminal, else after landing) and goes on to
  // execute after an empty selection, or without a terminal and without --select/--all.
  std::string automatic_text;
  // Keys added to the `--dry-run --json` document before the candidates (refine's `tier1`).
  nlohmann::ordered_json dry_run_json = nlohmann::ordered_json::object();
  // The stop message is the run's result, not a reason to stop (review's answer): printed on
  // stdout, and with --json as the dry-run document without `dry_run`.
  bool stop_is_result = false;
};

// What step 5 produced: the draft for the commit, and what to tell the user afterwards
// (link-scan warnings, completion tables).
struct Execution {
  ActionDraft draft;
  std::string summary;  // printed on stdout after the commit lands (may be empty)
};

// Everything a sub-mode reads, and every capability with a side effect it may use, passed in
// so that a sub-mode itself stays a pure function of its context (doc/architecture.md): the
// vault before the action, the work tree it came from, the clock's reading, and the
// summariser the user configured (never from a tracked file, D10). Sub-modes never prompt:
// the skeleton owns the terminal.
struct SubModeContext {
  const VaultState& state;
  const Snapshot& snapshot;
  Clock clock;
  // compress's summariser (configured_summarizer of git config `vault.summarizer`); nullopt
  // means the built-in extractive one.
  std::optional<Summarizer> summarizer;
  // The records and primitives of the telemetry sub-modes (revise, meta, review, learn,
  // dream); null for the others.
  const TelemetryInputs* telemetry = nullptr;
  // The value given to the sub-mode's flag when its row takes one (review's question).
  std::string argument = {};
  // Rows of each human dry-run list before `... and N more` (--limit; 0: all).
  std::size_t limit = 0;
};

// One mutating sub-mode of `git vault distill`, registered by one row of the sub-mode table
// (core/distill/sub_mode_registry.hpp). Implementations hold only their own rules:
// candidates, what the prompt shows, and the edits. The shared skeleton (cmd/distill.cpp)
// does the dry run, the selection, the batch regeneration, the log and the commit.
class SubMode {
 public:
  virtual ~SubMode() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;  // purge, gc, merge, ...
  // False for `auto` (and refine's Tier 1): it runs without a selection (D6 exemptions).
  [[nodiscard]] virtual bool needs_selection() const { return true; }
  [[nodiscard]] virtual CandidateSet candidates(const SubModeContext& context) const = 0;
  // `selected` is a subset of candidates(context).candidates, in presentation order, and not
  // empty unless needs_selection() is false or the set has automatic_text. Throws gv::Error
  // when a file cannot be edited.
  [[nodiscard]] virtual Execution execute(const SubModeContext& context,
                                          const std::vector<Candidate>& selected) const = 0;
};

// The built-in sub-mode called `name` (builtin_sub_modes().make), or nullptr when there is none.
[[nodiscard]] std::unique_ptr<SubMode> make_sub_mode(std::string_view name);

}  // namespace gv::distill
