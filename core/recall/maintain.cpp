#include "core/recall/maintain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/recall/id_order.hpp"
#include "core/recall/maintain_render.hpp"

namespace gv::recall {
namespace {

constexpr double k_never_reviewed_days = 365.0;
constexpr double k_seconds_per_day = 86400.0;

bool is_word_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

Finding metadata_warning(const std::string& id, std::string message) {
  Finding finding;
  finding.check = "metadata";
  finding.severity = Severity::warning;
  finding.path = std::string{k_metadata_path};
  finding.id = id;
  finding.message = std::move(message);
  return finding;
}

// Where each id's line is: the first occurrence in scan order (the gate rules out others).
struct Located {
  std::size_t file = 0;
  std::size_t entry = 0;
};

std::map<std::string, Located> locate_ids(const std::vector<ParsedFile>& files) {
  std::map<std::string, Located> where;
  for (std::size_t f = 0; f < files.size(); ++f) {
    for (std::size_t e = 0; e < files[f].entries.size(); ++e) {
      const Entry& entry = files[f].entries[e];
      if (entry.state == EntryState::tagged) {
        where.emplace(entry.id, Located{f, e});
      }
    }
  }
  return where;
}

Candidate make_candidate(CandidateKind kind, const ParsedFile& parsed, const Entry& entry,
                         int words) {
  Candidate candidate;
  candidate.kind = kind;
  candidate.id = entry.id;
  candidate.path = parsed.file.path;
  candidate.display_path = parsed.file.display_path;
  candidate.line = entry.line;
  candidate.tier = parsed.file.tier;
  candidate.text = entry.shown_text();
  candidate.words = words;
  return candidate;
}

int working_words_of(const std::vector<ParsedFile>& files) {
  int words = 0;
  for (const ParsedFile& parsed : files) {
    if (parsed.file.tier != Tier::working) {
      continue;
    }
    for (const Entry& entry : parsed.entries) {
      if (entry.state == EntryState::tagged) {
        words += count_words(entry.text);
      }
    }
  }
  return words;
}

int tier_rank(Tier tier) {
  switch (tier) {
    case Tier::working:
      return 0;
    case Tier::register_:
      return 1;
    case Tier::archive:
      return 2;
  }
  return 3;
}

// The order list_managed_files produces: working, registers, archive, each by path bytes.
bool scan_order_less(const ParsedFile& a, const ParsedFile& b) {
  const int rank_a = tier_rank(a.file.tier);
  const int rank_b = tier_rank(b.file.tier);
  return rank_a != rank_b ? rank_a < rank_b : a.file.path < b.file.path;
}

ManagedFile managed_file(std::string_view path) {
  return ManagedFile{std::string{path}, display_path(path), tier_of(path).value_or(Tier::archive)};
}

}  // namespace

int count_words(std::string_view text) {
  int words = 0;
  bool in_word = false;
  for (const char c : text) {
    const bool space = is_word_space(c);
    if (!space && !in_word) {
      ++words;
    }
    in_word = !space;
  }
  return words;
}

std::string_view action_name(Action action) {
  switch (action) {
    case Action::keep:
      return "keep";
    case Action::pin:
      return "pin";
    case Action::snooze:
      return "snooze";
    case Action::demote:
      return "demote";
    case Action::archive:
      return "archive";
    case Action::mark_superseded:
      return "mark-superseded";
  }
  return "keep";
}

std::vector<const Candidate*> Analysis::numbered() const {
  std::vector<const Candidate*> out;
  for (const Candidate& candidate : pressure) {
    out.push_back(&candidate);
  }
  for (const Candidate& candidate : superseded) {
    out.push_back(&candidate);
  }
  return out;
}

Decision recommended_decision(CandidateKind kind) {
  return Decision{kind == CandidateKind::pressure ? Action::demote : Action::archive,
                  k_default_snooze_days};
}

bool action_allowed(CandidateKind kind, Action action) {
  return kind == CandidateKind::pressure || action == Action::archive || action == Action::keep;
}

Analysis analyze(const MaintainInput& input) { return analyze(input, input.metadata); }

Analysis analyze(const MaintainInput& input, Metadata metadata) {
  Analysis analysis;
  analysis.budget = input.budget;
  analysis.metadata = std::move(metadata);

  // Reconcile: every inline id gets a record, and its tier follows its file. An id's first
  // line in scan order is the one that counts; a repeated id (the gate refuses those) counts
  // once, there. The ids, sorted, are walked beside the metadata map in its key order: one pass
  // finds, adds and retiers every record and lists the orphans, where a lookup per id missed
  // the cache at every step (doc/performance.md, "Working memory of 50,000 entries").
  struct Slot {
    const Record* record = nullptr;  // tagged entries only
    bool first = false;              // the line of its id that counts
  };
  std::vector<std::vector<Slot>> slots(input.files.size());
  for (std::size_t f = 0; f < input.files.size(); ++f) {
    slots[f].resize(input.files[f].entries.size());
  }
  const std::string now = format_instant(input.now);
  Metadata& reconciled = analysis.metadata;
  auto next = reconciled.begin();
  const std::vector<TaggedRef> refs = tagged_by_id(input.files);
  for (std::size_t begin = 0; begin < refs.size();) {
    const TaggedRef& first = refs[begin];
    const std::array<char, 12> id_text = id_of_key(first.key);
    const std::string_view id = id_view(id_text);
    for (; next != reconciled.end() && std::string_view{next->first} < id; ++next) {
      analysis.orphans.push_back(next->first);
    }
    const ParsedFile& parsed = input.files[first.file];
    const std::string_view tier = tier_name(parsed.file.tier);
    Metadata::iterator record;
    if (next != reconciled.end() && next->first == id) {
      record = next++;
      if (record->second.tier != tier) {
        record->second.tier = tier;
        ++analysis.tiers_fixed;
      }
    } else {
      Record added;
      added.created_at = now;
      added.last_reviewed_at = now;
      added.tier = tier;
      record = reconciled.emplace_hint(next, id, std::move(added));
      ++analysis.records_added;
    }
    // Reconciliation never changes a status: an archived entry moved back by hand stays
    // archived, and the user hears about it, in the order of the ids.
    if (record->second.status == "archived" && parsed.file.tier != Tier::archive) {
      const Entry& entry = parsed.entries[first.entry];
      analysis.warnings.push_back(metadata_warning(
          entry.id, fmt::format("^{} is marked archived but sits in {} line {}; status kept",
                                entry.id, parsed.file.display_path, entry.line)));
    }
    std::size_t end = begin;
    for (; end < refs.size() && refs[end].key == first.key; ++end) {
      slots[refs[end].file][refs[end].entry] = Slot{&record->second, end == begin};
    }
    begin = end;
  }
  for (; next != reconciled.end(); ++next) {
    analysis.orphans.push_back(next->first);
  }

  // Pressure: the pool is every working entry that is neither pinned nor snoozed, scan order.
  // It holds positions and scores; only the entries chosen become candidates with their text.
  struct Pooled {
    std::size_t file = 0;
    std::size_t entry = 0;
    int words = 0;
    double score = 0.0;
    std::optional<double> days_since_review;
  };
  std::vector<Pooled> pool;
  for (std::size_t f = 0; f < input.files.size(); ++f) {
    const ParsedFile& parsed = input.files[f];
    if (parsed.file.tier != Tier::working) {
      continue;
    }
    for (std::size_t e = 0; e < parsed.entries.size(); ++e) {
      if (!slots[f][e].first) {
        continue;
      }
      const Entry& entry = parsed.entries[e];
      Pooled pooled{f, e, count_words(entry.text), 0.0, std::nullopt};
      analysis.working_words += pooled.words;
      const Record& record = *slots[f][e].record;
      if (record.pinned) {
        continue;
      }
      if (record.snoozed_until) {
        const std::optional<Instant> until = parse_instant(*record.snoozed_until);
        if (!until) {
          if (reads_as_time(*record.snoozed_until)) {  // else warned at its line already
            analysis.warnings.push_back(metadata_warning(
                entry.id, fmt::format("^{}: snoozed_until `{}` is not a timestamp; not snoozed",
                                      entry.id, *record.snoozed_until)));
          }
        } else if (*until > input.now) {
          continue;
        }
      }
      std::optional<Instant> reviewed;
      if (record.last_reviewed_at) {
        reviewed = parse_instant(*record.last_reviewed_at);
        // A value not even shaped as a time was warned about at its line by read_metadata.
        if (!reviewed && reads_as_time(*record.last_reviewed_at)) {
          analysis.warnings.push_back(metadata_warning(
              entry.id,
              fmt::format("^{}: last_reviewed_at `{}` is not a timestamp; scored as 365 days",
                          entry.id, *record.last_reviewed_at)));
        }
      }
      if (reviewed) {
        pooled.days_since_review = std::max(
            0.0, static_cast<double>(input.now.seconds - reviewed->seconds) / k_seconds_per_day);
      }
      pooled.score = static_cast<double>(pooled.words) +
                     0.1 * pooled.days_since_review.value_or(k_never_reviewed_days);
      analysis.pool_words += pooled.words;
      pool.push_back(pooled);
    }
  }
  analysis.pool_size = static_cast<int>(pool.size());

  if (analysis.over_budget()) {
    std::stable_sort(pool.begin(), pool.end(),
                     [](const Pooled& a, const Pooled& b) { return a.score > b.score; });
    int freed = 0;
    for (const Pooled& pooled : pool) {
      if (freed >= analysis.needed()) {
        break;
      }
      freed += pooled.words;
      const ParsedFile& parsed = input.files[pooled.file];
      Candidate candidate = make_candidate(CandidateKind::pressure, parsed,
                                           parsed.entries[pooled.entry], pooled.words);
      candidate.score = pooled.score;
      candidate.days_since_review = pooled.days_since_review;
      analysis.pressure.push_back(std::move(candidate));
    }
  }

  // Superseded cleanup: any tier but the archive, scan order, each entry listed once.
  std::unordered_set<std::string_view> listed;
  for (const Candidate& candidate : analysis.pressure) {
    listed.insert(candidate.id);
  }
  for (std::size_t f = 0; f < input.files.size(); ++f) {
    const ParsedFile& parsed = input.files[f];
    if (parsed.file.tier == Tier::archive) {
      continue;
    }
    for (std::size_t e = 0; e < parsed.entries.size(); ++e) {
      const Entry& entry = parsed.entries[e];
      if (entry.state != EntryState::tagged) {
        continue;
      }
      const Record& record = *slots[f][e].record;
      if (record.status != "superseded" || !listed.insert(entry.id).second) {
        continue;
      }
      analysis.superseded.push_back(
          make_candidate(CandidateKind::superseded, parsed, entry, count_words(entry.text)));
    }
  }
  return analysis;
}

std::string append_line(std::string bytes, std::string_view line) {
  const std::size_t first_newline = bytes.find('\n');
  const bool crlf =
      first_newline != std::string::npos && first_newline > 0 && bytes[first_newline - 1] == '\r';
  const std::string_view terminator = crlf ? "\r\n" : "\n";
  if (!bytes.empty() && bytes.back() != '\n') {
    bytes += terminator;
  }
  // A claim block moves whole: each of its lines ends the way the destination's lines do.
  std::size_t start = 0;
  while (true) {
    const std::size_t newline = line.find('\n', start);
    bytes += line.substr(start, newline == std::string_view::npos ? newline : newline - start);
    bytes += terminator;
    if (newline == std::string_view::npos) {
      break;
    }
    start = newline + 1;
  }
  return bytes;
}

MaintainResult plan_maintain(const MaintainInput& input, const Analysis& analysis,
                             const Decisions& decisions) {
  MaintainResult result;
  result.metadata = analysis.metadata;
  result.words_before = analysis.working_words;
  const std::string now = format_instant(input.now);
  const std::map<std::string, Located> where = locate_ids(input.files);

  struct Move {
    Located from;
    std::string_view destination;
  };
  std::vector<Move> moves;  // candidate order
  for (const Candidate* candidate : analysis.numbered()) {
    const auto decision = decisions.find(candidate->id);
    const auto located = where.find(candidate->id);
    if (decision == decisions.end() || located == where.end()) {
      continue;
    }
    Record& record = result.metadata.at(candidate->id);
    record.last_reviewed_at = now;
    switch (decision->second.action) {
      case Action::keep:
        ++result.counts.kept;
        break;
      case Action::pin:
        record.pinned = true;
        ++result.counts.pinned;
        break;
      case Action::snooze: {
        const Instant until{input.now.seconds + decision->second.snooze_days * 86400};
        record.snoozed_until = format_instant(until);
        result.latest_snooze = std::max(result.latest_snooze.value_or(until), until);
        ++result.counts.snoozed;
        break;
      }
      case Action::demote:
        record.tier = std::string{tier_name(Tier::register_)};
        moves.push_back({located->second, k_inbox_path});
        ++result.counts.demoted;
        break;
      case Action::archive:
        record.status = "archived";
        record.tier = std::string{tier_name(Tier::archive)};
        moves.push_back({located->second, k_archive_path});
        ++result.counts.archived;
        break;
      case Action::mark_superseded:
        record.status = "superseded";
        ++result.counts.superseded;
        break;
    }
    result.applied.emplace(candidate->id, decision->second.action);
    result.affected_ids.push_back(candidate->id);
  }
  std::sort(result.affected_ids.begin(), result.affected_ids.end());

  // New bytes: removals first (by byte range, last line first so earlier offsets stay valid),
  // then appends in candidate order, so one file can be both a source and a destination.
  std::map<std::string, std::string> bytes;  // path -> working copy
  std::map<std::string, std::vector<std::pair<std::size_t, std::size_t>>> removals;
  for (const Move& move : moves) {
    const ParsedFile& parsed = input.files[move.from.file];
    const Entry& entry = parsed.entries[move.from.entry];
    removals[parsed.file.path].emplace_back(entry.begin, entry.end);
    bytes.emplace(parsed.file.path, parsed.bytes);
  }
  for (auto& [path, ranges] : removals) {
    std::sort(ranges.rbegin(), ranges.rend());
    std::string& text = bytes.at(path);
    for (const auto& [begin, end] : ranges) {
      text.erase(begin, end - begin);
    }
  }
  for (const Move& move : moves) {
    const std::string destination{move.destination};
    if (!bytes.contains(destination)) {
      const auto existing =
          std::find_if(input.files.begin(), input.files.end(),
                       [&](const ParsedFile& parsed) { return parsed.file.path == destination; });
      bytes.emplace(destination, existing != input.files.end() ? existing->bytes
                                 : move.destination == k_inbox_path
                                     ? std::string{k_inbox_header}
                                     : std::string{k_archive_header});
    }
    const Entry& entry = input.files[move.from.file].entries[move.from.entry];
    bytes[destination] = append_line(std::move(bytes[destination]), entry.all_lines());
  }

  // Files after the run, for the word count and the secondary checks.
  for (const ParsedFile& parsed : input.files) {
    const auto changed = bytes.find(parsed.file.path);
    if (changed == bytes.end()) {
      result.files_after.push_back(parsed);
      continue;
    }
    if (changed->second != parsed.bytes) {
      result.writes.emplace(changed->first, changed->second);
    }
    result.files_after.push_back(parse_file(parsed.file, changed->second));
    bytes.erase(changed);
  }
  for (auto& [path, text] : bytes) {  // what is left was created by this run
    result.writes.emplace(path, text);
    result.files_after.push_back(parse_file(managed_file(path), text));
  }
  std::stable_sort(result.files_after.begin(), result.files_after.end(), scan_order_less);
  result.words_after = working_words_of(result.files_after);

  const std::string metadata_bytes = serialize_metadata(result.metadata);
  if (!input.metadata_bytes || *input.metadata_bytes != metadata_bytes) {
    result.writes.emplace(std::string{k_metadata_path}, metadata_bytes);
  }

  result.secondary = run_secondary_checks(result.files_after, result.metadata, input.now,
                                          input.today, input.daily_logs);
  result.summary = render_summary(result, analysis);
  return result;
}

std::optional<std::string> changed_since_scan(const MaintainInput& input,
                                              const MaintainResult& result,
                                              const Snapshot& snapshot) {
  for (const auto& [path, bytes] : result.writes) {
    std::optional<std::string> scanned;
    if (path == k_metadata_path) {
      scanned = input.metadata_bytes;
    } else {
      for (const ParsedFile& parsed : input.files) {
        if (parsed.file.path == path) {
          scanned = parsed.bytes;
        }
      }
    }
    if (snapshot.read(path) != scanned) {
      return display_path(path);
    }
  }
  return std::nullopt;
}

std::string describe_run(const MaintainResult& result) {
  const ActionCounts& counts = result.counts;
  std::vector<std::string> parts;
  const auto add = [&parts](int count, std::string_view verb) {
    if (count > 0) {
      parts.push_back(fmt::format("{} {}", verb, count));
    }
  };
  add(counts.demoted, "demote");
  add(counts.archived, "archive");
  add(counts.pinned, "pin");
  add(counts.snoozed, "snooze");
  add(counts.kept, "keep");
  add(counts.superseded, "mark superseded");
  if (parts.empty()) {
    return "reconcile metadata";
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace gv::recall
