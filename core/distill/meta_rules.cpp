#include "core/distill/meta_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/distill/revise_rules.hpp"

namespace gv::distill {
namespace {

using events::Event;

// One reflection phrase: what was hard or missed in one event.
struct Phrase {
  const Event* event = nullptr;
  std::string text;
  std::vector<std::string> terms;
};

struct Cluster {
  std::vector<std::string> seed;  // the first phrase's terms; later phrases are scored against it
  std::vector<const Phrase*> phrases;
  std::set<std::string> sessions;
};

}  // namespace

MetaResult find_meta_proposals(const std::vector<Event>& events, const TermScoring& terms) {
  MetaResult result;
  struct Group {
    std::vector<const Event*> events;
    std::set<std::string> sessions;
  };
  std::map<std::pair<std::string, std::string>, Group> groups;
  std::vector<Phrase> phrases;
  for (const Event& event : events) {
    if (event.category == "deviation" || event.category == "blocker") {
      result.deviations += event.category == "deviation" ? 1 : 0;
      result.blockers += event.category == "blocker" ? 1 : 0;
      Group& group = groups[{event.checkpoint.value_or("(none)"), event.event_type}];
      group.events.push_back(&event);
      group.sessions.insert(event.session_id);
    }
    if (event.event_type == "reflection") {
      ++result.reflections;
      for (const char* key : {"what_was_hard", "what_was_missed"}) {
        const auto it = event.detail.find(key);
        if (it != event.detail.end() && it->is_string() && !it->get<std::string>().empty()) {
          phrases.push_back({&event, it->get<std::string>(), {}});
        }
      }
    }
  }

  for (const auto& [key, group] : groups) {
    if (group.sessions.size() < k_strikes) {
      continue;
    }
    const auto& [checkpoint, event_type] = key;
    const auto named = std::find_if(group.events.begin(), group.events.end(),
                                    [](const Event* e) { return names_system_part(e->message); });
    if (checkpoint == "(none)" && named == group.events.end()) {
      continue;  // nothing to point the proposal at
    }
    MetaProposal proposal;
    proposal.key = fmt::format("meta-{}-{}", key_slug(checkpoint), key_slug(event_type));
    proposal.rule = std::string(k_rule_recurring_at_checkpoint);
    proposal.checkpoint = checkpoint;
    proposal.affected_area = checkpoint != "(none)" ? fmt::format("checkpoint {}", checkpoint)
                                                    : std::string(k_default_affected_area);
    proposal.sessions = group.sessions.size();
    proposal.summary = fmt::format("Recurring {} `{}` at checkpoint `{}` ({} events, {} sessions)",
                                   group.events.front()->category, event_type, checkpoint,
                                   group.events.size(), group.sessions.size());
    for (const Event* event : group.events) {
      proposal.evidence_ids.push_back(event->event_id);
      proposal.evidence_messages.push_back(event->message);
    }
    result.proposals.push_back(std::move(proposal));
  }

  for (Phrase& phrase : phrases) {
    phrase.terms = terms.key_terms(phrase.text);
  }
  std::vector<Cluster> clusters;
  for (const Phrase& phrase : phrases) {
    if (phrase.terms.empty()) {
      continue;
    }
    Cluster* best = nullptr;
    double best_overlap = 0.0;
    for (Cluster& cluster : clusters) {
      const double overlap = terms.overlap(phrase.terms, cluster.seed);
      if (overlaps(overlap) && overlap > best_overlap + 1e-9) {
        best = &cluster;
        best_overlap = overlap;
      }
    }
    if (best == nullptr) {
      clusters.push_back({phrase.terms, {}, {}});
      best = &clusters.back();
    }
    best->phrases.push_back(&phrase);
    best->sessions.insert(phrase.event->session_id);
  }
  std::size_t number = 0;
  for (const Cluster& cluster : clusters) {
    if (cluster.sessions.size() < k_strikes) {
      continue;
    }
    MetaProposal proposal;
    proposal.key = fmt::format("meta-reflection-{}", ++number);
    proposal.rule = std::string(k_rule_recurring_reflection);
    proposal.checkpoint = "(none)";
    proposal.affected_area = std::string(k_default_affected_area);
    proposal.sessions = cluster.sessions.size();
    std::string seed;
    for (const std::string& term : cluster.seed) {
      seed += (seed.empty() ? "" : ", ") + term;
    }
    proposal.summary =
        fmt::format("Reflections keep naming the same difficulty ({}) in {} sessions", seed,
                    cluster.sessions.size());
    std::set<std::string> seen;
    for (const Phrase* phrase : cluster.phrases) {
      if (seen.insert(phrase->event->event_id).second) {
        proposal.evidence_ids.push_back(phrase->event->event_id);
        proposal.evidence_messages.push_back(phrase->text);
      }
    }
    result.proposals.push_back(std::move(proposal));
  }
  std::sort(result.proposals.begin(), result.proposals.end(),
            [](const MetaProposal& a, const MetaProposal& b) { return a.key < b.key; });
  return result;
}

}  // namespace gv::distill
