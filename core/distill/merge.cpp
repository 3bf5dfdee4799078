// The merge sub-mode: fold a memory into another one whose keywords it largely shares
// (doc/merge-and-compress.md, "merge"; doc/decisions.md, D9).
#include "core/distill/merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <utility>

#include "core/distill/selection.hpp"
#include "core/distill/sub_mode.hpp"
#include "core/distill/text_edits.hpp"
#include "core/error.hpp"
#include "core/memory/body.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/memory/lines.hpp"
#include "core/memory/parse.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/row_limit.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::distill {
namespace {

constexpr double k_merge_threshold = 0.6;

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  });
  return out;
}

using util::trim;

// The bytes after a section's heading line, up to the section's end.
std::string_view section_content(std::string_view body, ByteRange section) {
  const std::string_view text = body.substr(section.begin, section.end - section.begin);
  const auto newline = text.find('\n');
  return newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
}

// Where text appended to a section goes: after its last line with content (so the blank
// lines that separate it from the next heading stay after the addition).
std::size_t section_append_point(std::string_view body, ByteRange section) {
  const std::string_view text = body.substr(section.begin, section.end - section.begin);
  const auto last = text.find_last_not_of(" \t\r\n");
  const auto newline = text.find('\n', last == std::string_view::npos ? 0 : last);
  return newline == std::string_view::npos ? section.end : section.begin + newline + 1;
}

// What must be appended to `text` so the next line starts after a blank line.
std::string blank_line_after(std::string_view text, std::string_view eol) {
  if (text.empty() || text.ends_with("\n\n") || text.ends_with("\n\r\n")) {
    return {};
  }
  return text.ends_with('\n') ? std::string(eol) : fmt::format("{}{}", eol, eol);
}

// Lines as (content without line ending) of `text`.
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  for (const TextLine& line : split_lines(text)) {
    lines.push_back(line_text(text, line));
  }
  return lines;
}

// The Connections edits of a merge: the primary's lines that would link only to itself once the
// secondary's links are rewritten are dropped, and the secondary's lines that link somewhere
// the primary does not yet are added.
struct ConnectionsUnion {
  std::vector<ByteRange> drop;     // whole lines of the primary body
  std::vector<std::string> added;  // lines of the secondary, without line endings
};

ConnectionsUnion union_connections(std::string_view primary_body, const BodySections& primary,
                                   std::string_view secondary_body, const BodySections& secondary,
                                   std::string_view primary_id, std::string_view secondary_id) {
  ConnectionsUnion result;
  std::set<std::string> targets;
  if (primary.connections) {
    const ByteRange range = *primary.connections;
    const std::string_view text = primary_body.substr(range.begin, range.end - range.begin);
    bool heading = true;
    for (const TextLine& line : split_lines(text)) {
      if (heading) {
        heading = false;
        continue;
      }
      const std::vector<std::string> links = wiki_links(line_text(text, line));
      const bool only_secondary =
          !links.empty() && std::all_of(links.begin(), links.end(), [&](const std::string& link) {
            return link == secondary_id;
          });
      if (only_secondary) {
        result.drop.push_back({range.begin + line.begin, range.begin + line.next});
        continue;
      }
      for (const std::string& link : links) {
        targets.insert(link == secondary_id ? std::string(primary_id) : link);
      }
    }
  }
  if (!secondary.connections) {
    return result;
  }
  for (std::string_view line : lines_of(section_content(secondary_body, *secondary.connections))) {
    std::vector<std::string> links = wiki_links(line);
    for (std::string& link : links) {
      if (link == secondary_id) {
        link = primary_id;
      }
    }
    const bool adds_target = std::any_of(links.begin(), links.end(), [&](const std::string& link) {
      return link != primary_id && targets.count(link) == 0;
    });
    if (!adds_target) {
      continue;  // blank, a placeholder comment, or nothing the primary lacks
    }
    targets.insert(links.begin(), links.end());
    result.added.emplace_back(line);
  }
  return result;
}

std::string merged_body(std::string_view primary_body, std::string_view secondary_body,
                        const Memory& primary, const Memory& secondary, double overlap, Date today,
                        std::string_view eol) {
  const BodySections p = locate_sections(primary_body);
  const BodySections s = locate_sections(secondary_body);

  const std::string_view secondary_main =
      trim_blank_lines(secondary_body.substr(s.main.begin, s.main.end - s.main.begin));
  const std::string_view secondary_history =
      s.history ? trim_blank_lines(section_content(secondary_body, *s.history))
                : std::string_view{};
  const ConnectionsUnion connections =
      union_connections(primary_body, p, secondary_body, s, primary.id, secondary.id);

  const std::string_view head = primary_body.substr(0, p.main.end);
  const std::string_view rest = primary_body.substr(p.main.end);

  std::vector<std::string> blocks;  // inserted at the end of the main content, each ending in eol
  std::string merged_from = fmt::format(
      "## Merged From {1}{0}{0}**Original Title**: {2}{0}**Merged**: {3}{0}**Overlap Score**: "
      "{4}{0}",
      eol, secondary.id, secondary.title, format_date(today), overlap_percent(overlap));
  if (!secondary_main.empty()) {
    merged_from += fmt::format("{0}{1}{0}", eol, secondary_main);
  }
  blocks.push_back(std::move(merged_from));
  if (!p.history && !secondary_history.empty()) {
    blocks.push_back(fmt::format("## History{0}{0}{1}{0}", eol, secondary_history));
  }

  // Edits to the rest of the primary, with offsets relative to `rest`.
  std::vector<TextEdit> edits;
  const std::size_t shift = p.main.end;
  if (p.history && !secondary_history.empty()) {
    const std::size_t at = section_append_point(primary_body, *p.history);
    edits.push_back({at - shift, at - shift, fmt::format("{0}{1}{0}", eol, secondary_history)});
  }
  for (const ByteRange& line : connections.drop) {
    edits.push_back({line.begin - shift, line.end - shift, {}});
  }
  std::string appended_connections;
  if (!connections.added.empty()) {
    std::string lines;
    for (const std::string& line : connections.added) {
      lines += fmt::format("{}{}", line, eol);
    }
    if (p.connections) {
      const std::size_t at = section_append_point(primary_body, *p.connections);
      const std::string_view before = primary_body.substr(0, at);
      edits.push_back({at - shift, at - shift,
                       before.ends_with('\n') ? lines : fmt::format("{}{}", eol, lines)});
    } else {
      appended_connections = fmt::format("## Connections{}{}", eol, lines);
    }
  }
  const std::string new_rest = apply_edits(rest, std::move(edits));

  std::string out(head);
  out += blank_line_after(out, eol);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    out += blocks[i];
    if (i + 1 < blocks.size() || !new_rest.empty() || !appended_connections.empty()) {
      out += eol;
    }
  }
  out += new_rest;
  if (!appended_connections.empty()) {
    out += blank_line_after(out, eol);
    out += appended_connections;
  }
  return out;
}

// Sets a scalar in place, or inserts it after `summary` (before `token_count`) when absent.
void put_scalar(FrontmatterEditor& editor, std::string_view key, std::string value) {
  editor.insert_fields({{std::string(key), std::move(value)}}, "summary", "token_count");
}

}  // namespace

Retrievals effective_retrievals(const Memory& memory,
                                const scoring::RetrievalOverrides& overrides) {
  Retrievals retrievals{memory.retrieval_count, memory.last_retrieved};
  if (const auto it = overrides.find(memory.id); it != overrides.end()) {
    retrievals.count = std::max(retrievals.count, it->second.retrieval_count);
    if (it->second.last_retrieved &&
        (!retrievals.last || *it->second.last_retrieved > *retrievals.last)) {
      retrievals.last = it->second.last_retrieved;
    }
  }
  return retrievals;
}

std::vector<std::string> missing_keywords(const Memory& primary, const Memory& secondary,
                                          const Memory& written) {
  std::set<std::string> required = keyword_keys(primary);
  const std::set<std::string> from_secondary = keyword_keys(secondary);
  required.insert(from_secondary.begin(), from_secondary.end());
  const std::set<std::string> present = keyword_keys(written);
  std::vector<std::string> missing;
  std::set_difference(required.begin(), required.end(), present.begin(), present.end(),
                      std::back_inserter(missing));
  return missing;
}

bool is_primary(const PrimaryFacts& a, const PrimaryFacts& b) {
  if (a.retrieval_count != b.retrieval_count) {
    return a.retrieval_count > b.retrieval_count;
  }
  if (a.created != b.created) {
    return a.created < b.created;
  }
  return a.id < b.id;
}

std::vector<MergePair> merge_pairs(const std::vector<Memory>& memories,
                                   const scoring::RetrievalOverrides& overrides, std::size_t most) {
  std::map<std::string, std::vector<const Memory*>> clusters;
  for (const Memory& memory : memories) {
    if (memory.active()) {
      clusters[scoring::cluster_key(memory.topic)].push_back(&memory);
    }
  }
  std::vector<MergePair> pairs;
  for (const auto& [cluster, members] : clusters) {
    const std::size_t cluster_first = pairs.size();
    std::vector<std::vector<std::string>> keys;  // sorted keyword keys per member
    std::unordered_map<std::string, std::vector<std::size_t>> postings;
    std::vector<std::int64_t> retrievals;  // per member, looked up once rather than per pair
    retrievals.reserve(members.size());
    for (std::size_t i = 0; i < members.size(); ++i) {
      retrievals.push_back(effective_retrievals(*members[i], overrides).count);
      const std::set<std::string> set = keyword_keys(*members[i]);
      keys.emplace_back(set.begin(), set.end());
      for (const std::string& key : set) {
        postings[key].push_back(i);
      }
    }
    // Shared keyword counts with the later members, found through the postings only: one
    // counter per member, and the members touched, so a member costs what its postings hold.
    std::vector<std::uint32_t> shared(members.size(), 0);
    std::vector<std::size_t> touched;
    for (std::size_t a = 0; a < members.size(); ++a) {
      touched.clear();
      for (const std::string& key : keys[a]) {
        const std::vector<std::size_t>& list = postings.find(key)->second;
        // Sorted ascending: skip to the members after `a`.
        for (auto b = std::upper_bound(list.begin(), list.end(), a); b != list.end(); ++b) {
          if (shared[*b]++ == 0) {
            touched.push_back(*b);
          }
        }
      }
      for (const std::size_t b : touched) {
        const std::size_t count = std::exchange(shared[b], 0);
        const double inter = static_cast<double>(count);
        const double overlap = std::max(inter / static_cast<double>(keys[a].size()),
                                        inter / static_cast<double>(keys[b].size()));
        if (!scoring::at_least(overlap, k_merge_threshold)) {
          continue;
        }
        const Memory& first = *members[a];
        const Memory& second = *members[b];
        const PrimaryFacts first_facts{first.id, retrievals[a], first.created};
        const PrimaryFacts second_facts{second.id, retrievals[b], second.created};
        const bool first_primary = is_primary(first_facts, second_facts);
        MergePair pair;
        pair.cluster = cluster;
        pair.primary = first_primary ? first.id : second.id;
        pair.secondary = first_primary ? second.id : first.id;
        pair.overlap = overlap;
        std::set_intersection(keys[a].begin(), keys[a].end(), keys[b].begin(), keys[b].end(),
                              std::back_inserter(pair.shared_keywords));
        pairs.push_back(std::move(pair));
        if (pairs.size() > most) {
          throw Error(
              "merge: more than {} pairs of memories share at least 60% of their keywords ({} "
              "of them among the {} memories of cluster `{}`): keywords this alike cannot tell "
              "duplicates apart, and listing every pair would take gigabytes of memory. Give "
              "the memories more specific keywords, then run the merge again. Nothing was "
              "changed.",
              most, pairs.size() - cluster_first, members.size(), cluster);
        }
      }
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const MergePair& x, const MergePair& y) {
    if (x.cluster != y.cluster) {
      return x.cluster < y.cluster;
    }
    if (x.overlap != y.overlap) {
      return x.overlap > y.overlap;
    }
    if (x.primary != y.primary) {
      return x.primary < y.primary;
    }
    return x.secondary < y.secondary;
  });
  return pairs;
}

std::string overlap_percent(double overlap) {
  // The tolerance keeps a product like 0.575 * 100 = 57.49999... rounding up, as on paper.
  return fmt::format("{}%", static_cast<long long>(std::floor(overlap * 100.0 + 0.5 + 1e-9)));
}

MergedPair merge_memories(const MergeSide& primary, const MergeSide& secondary, double overlap,
                          Date today) {
  MergedPair result;
  const std::set<std::string> primary_keys = keyword_keys(primary.memory);
  const std::set<std::string> secondary_keys = keyword_keys(secondary.memory);
  std::set<std::string> required = primary_keys;
  required.insert(secondary_keys.begin(), secondary_keys.end());
  result.primary_keywords = primary_keys.size();
  result.secondary_keywords = secondary_keys.size();

  FrontmatterEditor editor(primary.path, primary.bytes);
  const Memory& p = primary.memory;
  const Memory& s = secondary.memory;
  if (s.created < p.created) {
    editor.set_scalar("created", format_date(s.created));
  }
  editor.insert_fields({{"modified", format_date(today)}}, "created", "tags");

  std::vector<std::string> tags = p.tags;
  bool tags_grew = false;
  for (const std::string& tag : s.tags) {
    const bool known = std::any_of(tags.begin(), tags.end(),
                                   [&](const std::string& t) { return upper(t) == upper(tag); });
    if (!known) {
      tags.push_back(tag);
      tags_grew = true;
    }
  }
  if (tags_grew) {
    editor.set_list("tags", tags);
  }

  // The list is rewritten (sorted by key) only when the set grows, so merging a memory
  // whose keywords the primary already holds leaves the primary's list as it was (D9).
  if (!std::includes(primary_keys.begin(), primary_keys.end(), secondary_keys.begin(),
                     secondary_keys.end())) {
    std::map<std::string, std::string> spelling;  // key -> first spelling, primary first
    for (const Memory* memory : {&p, &s}) {
      for (const std::string& keyword : memory->keywords) {
        const std::string key = keyword_key(keyword);
        if (!key.empty()) {
          spelling.emplace(key, std::string(trim(keyword)));
        }
      }
    }
    std::vector<std::string> keywords;
    for (auto& entry : spelling) {
      keywords.push_back(std::move(entry.second));
    }
    editor.set_list("keywords", keywords);
  }

  const std::int64_t count = primary.retrievals.count + secondary.retrievals.count;
  if (count != p.retrieval_count) {
    put_scalar(editor, "retrieval_count", std::to_string(count));
  }
  std::optional<Date> last = primary.retrievals.last;
  if (secondary.retrievals.last && (!last || *secondary.retrievals.last > *last)) {
    last = secondary.retrievals.last;
  }
  if (last && last != p.last_retrieved) {
    put_scalar(editor, "last_retrieved", format_date(*last));
  }

  const std::string edited = editor.bytes();
  const FrontmatterSplit edited_split = split_frontmatter(edited);
  const FrontmatterSplit primary_split = split_frontmatter(primary.bytes);
  const FrontmatterSplit secondary_split = split_frontmatter(secondary.bytes);
  std::string merged = edited.substr(0, edited_split.body_begin);
  merged += merged_body(primary_split.body(primary.bytes), secondary_split.body(secondary.bytes), p,
                        s, overlap, today, primary_split.line_ending);
  if (auto rewritten = rewrite_links(merged, s.id, p.id)) {
    merged = std::move(*rewritten);
  }

  // The invariant is checked on what would be written, read back the way every reader will.
  const ParsedMemory reread = parse_memory(primary.path, merged, {});
  if (reread.memory) {
    result.merged_keywords = keyword_keys(*reread.memory).size();
    result.missing_keywords = missing_keywords(p, s, *reread.memory);
  } else {
    result.missing_keywords.assign(required.begin(), required.end());
  }
  if (!result.missing_keywords.empty()) {
    return result;
  }
  result.primary_bytes = std::move(merged);

  FrontmatterEditor tombstone(secondary.path, secondary.bytes);
  tombstone.insert_fields({{"status", "tombstoned"},
                           {"tombstoned_at", format_date(today)},
                           {"tombstone_reason", yaml_double_quoted("merged_into:" + p.id)}},
                          "summary", "token_count");
  result.secondary_bytes = tombstone.bytes();
  return result;
}

std::map<std::string, std::string> final_primaries(
    const std::map<std::string, std::string>& absorbed_into) {
  std::map<std::string, std::string> result;
  for (const auto& [secondary, primary] : absorbed_into) {
    std::string last = primary;
    // A memory absorbed in a run is never merged again in it, so chains end; the bound only
    // guards against a map no run could build.
    for (std::size_t step = 0; step < absorbed_into.size(); ++step) {
      const auto next = absorbed_into.find(last);
      if (next == absorbed_into.end()) {
        break;
      }
      last = next->second;
    }
    result.emplace(secondary, std::move(last));
  }
  return result;
}

std::optional<std::string> rewrite_links(std::string_view bytes, std::string_view from,
                                         std::string_view to) {
  const FrontmatterSplit split = split_frontmatter(bytes);
  const std::size_t body_begin = split.status == FrontmatterStatus::ok ? split.body_begin : 0;
  const std::string_view body = bytes.substr(body_begin);
  std::vector<TextEdit> edits;
  for_each_wiki_link(body, [&](const WikiLinkSpan& span) {
    const std::string_view inner = span.inner;
    const std::string_view raw = inner.substr(0, inner.find_first_of("|#"));
    const auto first = raw.find_first_not_of(" \t");
    if (first != std::string_view::npos && inner.find('[') == std::string_view::npos) {
      const std::string_view target = raw.substr(first, raw.find_last_not_of(" \t") - first + 1);
      if (target == from) {
        const std::size_t at = body_begin + span.offset + first;
        edits.push_back({at, at + target.size(), std::string(to)});
      }
    }
  });
  if (edits.empty()) {
    return std::nullopt;
  }
  return apply_edits(bytes, std::move(edits));
}

namespace {

// The pairs as candidates, each described when shown: a small vocabulary gives hundreds of
// thousands of pairs, and three strings held for each were most of a dry run's memory.
class MergeCandidates final : public CandidateSource {
 public:
  struct Facts {
    std::string title;
    std::int64_t retrievals = 0;
  };

  MergeCandidates(std::vector<MergePair> pairs, std::unordered_map<std::string, Facts> facts)
      : m_pairs(std::move(pairs)), m_facts(std::move(facts)) {}

  [[nodiscard]] const std::vector<MergePair>& pairs() const { return m_pairs; }

  [[nodiscard]] std::string label(std::size_t index) const override {
    const MergePair& pair = m_pairs[index];
    return fmt::format("{} + {} ({} overlap, cluster {})", pair.primary, pair.secondary,
                       overlap_percent(pair.overlap), pair.cluster);
  }
  [[nodiscard]] std::string details(std::size_t index) const override {
    const MergePair& pair = m_pairs[index];
    const Facts& primary = m_facts.at(pair.primary);
    const Facts& secondary = m_facts.at(pair.secondary);
    return fmt::format("\"{}\" + \"{}\" | Shared: {} | Retrievals: {}, {}", primary.title,
                       secondary.title, fmt::join(pair.shared_keywords, ", "), primary.retrievals,
                       secondary.retrievals);
  }
  [[nodiscard]] nlohmann::ordered_json json(std::size_t index) const override {
    const MergePair& pair = m_pairs[index];
    return nlohmann::ordered_json{{"cluster", pair.cluster},
                                  {"primary", pair.primary},
                                  {"secondary", pair.secondary},
                                  {"overlap", pair.overlap},
                                  {"shared_keywords", pair.shared_keywords}};
  }

 private:
  std::vector<MergePair> m_pairs;
  std::unordered_map<std::string, Facts> m_facts;  // by memory id, for the memories paired
};

class Merge final : public SubMode {
 public:
  [[nodiscard]] std::string_view name() const override { return "merge"; }

  [[nodiscard]] CandidateSet candidates(const SubModeContext& context) const override {
    CandidateSet set;
    set.json_key = "pairs";
    set.question =
        "Select pairs to merge. The first memory of each pair is kept and absorbs the second, "
        "which is tombstoned";
    set.none_selected_message = "No pairs selected. No merges performed.";
    const Vault& vault = context.state.vault;
    const auto active = std::count_if(vault.memories.begin(), vault.memories.end(),
                                      [](const Memory& memory) { return memory.active(); });
    if (active < 2) {
      set.stop_message =
          fmt::format("Merge requires at least 2 active memories. Vault has {}.", active);
      return set;
    }
    std::vector<MergePair> found = merge_pairs(vault.memories, context.state.overrides);
    if (found.empty()) {
      set.stop_message = "No merge candidates found (no pairs with >= 60% keyword overlap).";
      return set;
    }
    std::unordered_map<std::string, MergeCandidates::Facts> facts;
    const MemoriesById by_id(vault);
    for (const MergePair& pair : found) {
      for (const std::string* id : {&pair.primary, &pair.secondary}) {
        if (!facts.contains(*id)) {
          const Memory& memory = *by_id.find(*id);
          facts.emplace(
              *id, MergeCandidates::Facts{
                       memory.title, effective_retrievals(memory, context.state.overrides).count});
        }
      }
    }
    const auto source = std::make_shared<const MergeCandidates>(std::move(found), std::move(facts));
    const std::vector<MergePair>& pairs = source->pairs();
    std::string text = "## Merge Candidates (Dry Run)\n";
    std::set<std::string> clusters;
    util::RowLimit rows(context.limit);
    set.candidates.reserve(pairs.size());
    for (std::size_t index = 0; index < pairs.size(); ++index) {
      const MergePair& pair = pairs[index];
      const bool new_cluster = clusters.insert(pair.cluster).second;
      const bool shown = rows.next();
      if (new_cluster && shown) {
        text += fmt::format(
            "\n### Cluster: {}\n\n| Primary | Secondary | Overlap | Shared Keywords |\n"
            "|---------|-----------|---------|-----------------|\n",
            pair.cluster);
      }
      if (shown) {
        text += fmt::format("| {} | {} | {} | {} |\n", pair.primary, pair.secondary,
                            overlap_percent(pair.overlap), fmt::join(pair.shared_keywords, ", "));
      }
      Candidate& candidate = set.candidates.emplace_back();
      candidate.key = pair.key();
      candidate.source = source;
      candidate.index = index;
    }
    const std::string rest = rows.rest_line();
    text += rest.empty() ? "" : "\n" + rest;
    text += fmt::format("\n{} found across {}.\n",
                        util::plural(pairs.size(), "merge candidate pair", "merge candidate pairs"),
                        util::plural(clusters.size(), "cluster", "clusters"));
    text += run_hint("--merge", set);
    set.dry_run_text = std::move(text);
    return set;
  }

  [[nodiscard]] Execution execute(const SubModeContext& context,
                                  const std::vector<Candidate>& selected) const override {
    const Vault& vault = context.state.vault;
    const MemoriesById by_id(vault);
    std::map<std::string, std::string> edited;  // path -> bytes after this run's edits so far
    auto current = [&](const std::string& path) {
      if (const auto it = edited.find(path); it != edited.end()) {
        return it->second;
      }
      std::optional<std::string> bytes = context.snapshot.read(path);
      if (!bytes) {
        throw Error("{}: cannot read", path);
      }
      return std::move(*bytes);
    };

    Execution execution;
    ActionDraft& draft = execution.draft;
    draft.type = "merge";
    std::map<std::string, std::string> absorbed_into;  // secondary id -> primary id
    std::set<std::string> clusters;
    std::vector<std::string> link_notes;
    std::vector<std::string> problems;
    nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
    std::string table;

    for (const Candidate& candidate : selected) {
      const nlohmann::ordered_json listed = candidate.document();
      const std::string primary_id = listed.at("primary").get<std::string>();
      const std::string secondary_id = listed.at("secondary").get<std::string>();
      const double overlap = listed.at("overlap").get<double>();
      const std::string cluster = listed.at("cluster").get<std::string>();

      std::optional<std::string> gone;
      for (const std::string& id : {primary_id, secondary_id}) {
        if (const auto it = absorbed_into.find(id); it != absorbed_into.end() && !gone) {
          gone = fmt::format("{} was merged into {} earlier in this run", id, it->second);
        }
      }
      if (gone) {
        problems.push_back(fmt::format("{}: skipped, {}", candidate.key, *gone));
        skipped.push_back({{"primary", primary_id},
                           {"secondary", secondary_id},
                           {"overlap_score", overlap},
                           {"action", "skipped"},
                           {"reason", *gone}});
        continue;
      }

      const Memory* primary_memory = by_id.find(primary_id);
      const Memory* secondary_memory = by_id.find(secondary_id);
      if (primary_memory == nullptr || secondary_memory == nullptr) {
        throw Error("{}: no such memory", primary_memory == nullptr ? primary_id : secondary_id);
      }
      // Earlier pairs of this run may have rewritten these files: merge what is there now.
      const std::string primary_bytes = current(primary_memory->path);
      const std::string secondary_bytes = current(secondary_memory->path);
      const ParsedMemory primary_parsed = parse_memory(primary_memory->path, primary_bytes, {});
      const ParsedMemory secondary_parsed =
          parse_memory(secondary_memory->path, secondary_bytes, {});
      if (!primary_parsed.memory || !secondary_parsed.memory) {
        throw Error("{}: cannot be read back after an earlier merge of this run",
                    primary_parsed.memory ? secondary_memory->path : primary_memory->path);
      }
      const MergeSide primary{
          primary_memory->path, primary_bytes, *primary_parsed.memory,
          effective_retrievals(*primary_parsed.memory, context.state.overrides)};
      const MergeSide secondary{
          secondary_memory->path, secondary_bytes, *secondary_parsed.memory,
          effective_retrievals(*secondary_parsed.memory, context.state.overrides)};
      MergedPair merged = merge_memories(primary, secondary, overlap, context.clock.today);
      if (!merged.missing_keywords.empty()) {
        const std::string message = fmt::format("KEYWORD SUPERSET VIOLATION: missing keywords: {}",
                                                fmt::join(merged.missing_keywords, ", "));
        problems.push_back(
            fmt::format("{}: {}; both files left unchanged", candidate.key, message));
        skipped.push_back(
            {{"primary", primary_id},
             {"secondary", secondary_id},
             {"overlap_score", overlap},
             {"keywords_before", {merged.primary_keywords, merged.secondary_keywords}},
             {"keywords_after", merged.merged_keywords},
             {"keyword_superset_verified", false},
             {"action", "aborted"},
             {"reason", message}});
        continue;
      }
      edited[primary_memory->path] = std::move(merged.primary_bytes);
      edited[secondary_memory->path] = std::move(merged.secondary_bytes);
      absorbed_into[secondary_id] = primary_id;
      clusters.insert(cluster);

      for (const Memory& memory : vault.memories) {
        if (!memory.active() || absorbed_into.count(memory.id) != 0 || memory.id == primary_id) {
          continue;
        }
        if (auto rewritten = rewrite_links(current(memory.path), secondary_id, primary_id)) {
          edited[memory.path] = std::move(*rewritten);
          link_notes.push_back(
              fmt::format("{}: replaced [[{}]] -> [[{}]]", memory.path, secondary_id, primary_id));
          draft.plan.memories.push_back(memory.id);
        }
      }

      draft.plan.memories.push_back(primary_id);
      draft.plan.memories.push_back(secondary_id);
      draft.affected_memories.push_back(
          {{"primary", primary_id},
           {"secondary", secondary_id},
           {"overlap_score", overlap},
           {"keywords_before", {merged.primary_keywords, merged.secondary_keywords}},
           {"keywords_after", merged.merged_keywords},
           {"keyword_superset_verified", true},
           {"action", "merged"}});
      table += fmt::format("| {} | {} | {} | {} + {} -> {} |\n", primary_id, secondary_id,
                           overlap_percent(overlap), merged.primary_keywords,
                           merged.secondary_keywords, merged.merged_keywords);
    }

    const std::size_t merged_count = draft.affected_memories.size();
    if (merged_count == 0) {
      throw Error("no pair was merged, nothing was written: {}", fmt::join(problems, "; "));
    }
    // doc/decisions.md D14: a secondary whose primary was absorbed by a later pair names the
    // final primary, so no tombstone points at another tombstone.
    for (const auto& [secondary_id, final_id] : final_primaries(absorbed_into)) {
      if (final_id == absorbed_into.at(secondary_id)) {
        continue;
      }
      const std::string& secondary_path = by_id.find(secondary_id)->path;
      FrontmatterEditor tombstone(secondary_path, edited.at(secondary_path));
      tombstone.set_scalar("tombstone_reason", yaml_double_quoted("merged_into:" + final_id));
      edited[secondary_path] = tombstone.bytes();
    }
    for (auto& [path, bytes] : edited) {
      draft.plan.write(path, std::move(bytes));
    }
    std::sort(draft.plan.memories.begin(), draft.plan.memories.end());
    draft.plan.memories.erase(std::unique(draft.plan.memories.begin(), draft.plan.memories.end()),
                              draft.plan.memories.end());
    draft.changed_memories = true;
    if (!skipped.empty()) {
      draft.extra["skipped_pairs"] = std::move(skipped);
    }
    draft.notes =
        fmt::format("Merged {} pair(s) across {} cluster(s)", merged_count, clusters.size());
    if (!link_notes.empty()) {
      draft.notes += fmt::format(". {}", fmt::join(link_notes, "; "));
    }
    if (!problems.empty()) {
      draft.notes += fmt::format(". {}", fmt::join(problems, "; "));
    }
    const auto& first = draft.affected_memories.front();
    draft.plan.subject =
        merged_count == 1
            ? fmt::format("vault(merge): merge {} into {}", first["secondary"].get<std::string>(),
                          first["primary"].get<std::string>())
            : fmt::format("vault(merge): merge {} pairs", merged_count);

    std::string summary = fmt::format(
        "## Merge Complete\n\n| Primary | Secondary | Overlap | Keywords |\n"
        "|---------|-----------|---------|----------|\n{}",
        table);
    if (!link_notes.empty()) {
      summary += "\nCross-references updated:\n";
      for (const std::string& note : link_notes) {
        summary += fmt::format("- {}\n", note);
      }
    }
    if (!problems.empty()) {
      summary += "\nNot merged:\n";
      for (const std::string& problem : problems) {
        summary += fmt::format("- {}\n", problem);
      }
    }
    execution.summary = std::move(summary);
    return execution;
  }
};

}  // namespace

std::unique_ptr<SubMode> make_merge() { return std::make_unique<Merge>(); }

}  // namespace gv::distill
