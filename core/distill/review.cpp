// The review sub-mode: a read-only answer to a question from the vault, the event store, the prompt
// history and archived tasks, every statement citing its tier and record (doc/telemetry.md,
// "review"; rules in core/distill/review_rules.hpp). It never proposes and never writes, a stated
// exemption from the selection step (D6).

#include <fmt/format.h>

#include "core/distill/review_rules.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/distill/telemetry_inputs.hpp"
#include "core/distill/telemetry_support.hpp"
#include "core/error.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/text.hpp"

namespace gv::distill {
namespace {

using Json = nlohmann::ordered_json;

class Review final : public SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "review"; }
  [[nodiscard]] bool needs_selection() const override { return false; }

  [[nodiscard]] CandidateSet candidates(const SubModeContext& context) const override {
    const TelemetryInputs& inputs = telemetry_of(context, "review");
    CandidateSet set;
    if (util::trim(context.argument).empty()) {
      throw UsageError("Usage: git vault distill --review \"<question>\"");
    }
    ReviewSources sources;
    sources.memories = &context.state.vault.memories;
    events::EventQuery query = read_events(inputs, {});
    if (query.stats.exists && query.stats.events > 0) {
      sources.events = std::move(query.events);
    }
    events::HistoryQuery history = read_history(inputs, std::nullopt);
    if (history.exists && !history.prompts.empty()) {
      sources.prompts = std::move(history.prompts);
    }
    const ArchivedTasks archived = read_archived_tasks(context.snapshot);
    for (const events::ArchivedTask& task : archived.tasks) {
      for (const std::string& path : events::task_artifacts(task, archived.spec_paths)) {
        if (std::optional<std::string> text = context.snapshot.read(path)) {
          sources.artifacts.emplace_back(path, std::move(*text));
        }
      }
    }
    const ReviewAnswer answer = answer_review(context.argument, sources, inputs.terms);
    set.stop_message = render_review(answer, context.argument);
    set.stop_is_result = true;
    set.dry_run_text = *set.stop_message;
    Json evidence = Json::array();
    for (const Citation& citation : answer.evidence) {
      evidence.push_back(Json{{"tier", citation.tier},
                              {"record", citation.record},
                              {"text", citation.text},
                              {"matched_terms", citation.matched_terms}});
    }
    set.dry_run_json = Json{{"question", context.argument},      {"terms", answer.terms},
                            {"answer", answer.answer},           {"evidence", evidence},
                            {"unavailable", answer.unavailable}, {"rule", answer.rule}};
    return set;
  }

  [[nodiscard]] Execution execute(const SubModeContext& /*context*/,
                                  const std::vector<Candidate>& /*selected*/) const override {
    throw Error("--review is read-only");
  }
};

}  // namespace

std::unique_ptr<SubMode> make_review() { return std::make_unique<Review>(); }

}  // namespace gv::distill
