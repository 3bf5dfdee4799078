#include "core/search/search.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <set>

#include "core/memory/body.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/recall/metadata.hpp"
#include "core/recall/scan.hpp"
#include "core/search/snippet.hpp"
#include "core/search/terms.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/text.hpp"

namespace gv::search {
namespace {

int count_lines_before(std::string_view text, std::size_t offset) {
  return static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

// Scores that differ only by floating-point noise are ties, broken by the next key.
bool same_score(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, a); }

// Entries recall treats as no longer current: those its metadata marks superseded, those under
// a `## [superseded: …]` heading, and daily-log style `[superseded] …` lines.
std::set<int> superseded_lines(const recall::ParsedFile& parsed, const recall::Metadata& metadata) {
  std::set<int> lines;
  const std::vector<Heading> headings = find_headings(parsed.bytes);
  for (const recall::Entry& entry : parsed.entries) {
    bool superseded = std::string_view(entry.text).starts_with("[superseded");
    if (!entry.id.empty()) {
      const auto found = metadata.find(entry.id);
      superseded = superseded || (found != metadata.end() && found->second.status == "superseded");
    }
    const Heading* section = nullptr;
    for (const Heading& heading : headings) {
      if (heading.line >= entry.line) {
        break;
      }
      section = &heading;
    }
    if (section != nullptr && section->text.starts_with("[superseded")) {
      superseded = true;
    }
    if (superseded) {
      lines.insert(entry.line);
    }
  }
  return lines;
}

}  // namespace

// Blanked with spaces, newlines kept, so that offsets and line numbers stay those of the file.
std::string searchable_body(std::string_view body) {
  std::string text(body);
  const auto blank = [&text](ByteRange range) {
    for (std::size_t at = range.begin; at < range.end && at < text.size(); ++at) {
      if (text[at] != '\n') {
        text[at] = ' ';
      }
    }
  };
  for (const ByteRange& comment : html_comments(body)) {
    blank(comment);
  }
  if (const std::optional<ByteRange> history = locate_sections(body).history) {
    blank(*history);
  }
  return text;
}

std::optional<Scope> parse_scope(std::string_view text) {
  if (text == "memories") {
    return Scope::memories;
  }
  if (text == "working") {
    return Scope::working;
  }
  if (text == "all") {
    return Scope::all;
  }
  return std::nullopt;
}

std::string_view kind_name(Hit::Kind kind) {
  return kind == Hit::Kind::memory ? "memory" : "entry";
}

void SearchIndex::set_memory(const Memory& memory, std::string_view body, Stamp stamp) {
  const std::string keywords = util::join(memory.keywords, " ; ");
  MemorySlot slot;
  slot.document = m_memory_index.add({memory.title, keywords, memory.topic, memory.summary, body});
  slot.stamp = stamp;
  slot.blob_oid = memory.blob_oid;
  slot.path = memory.path;
  slot.title = memory.title;
  slot.retrieval_count = memory.retrieval_count;
  slot.summary = memory.summary;
  slot.keywords = memory.keywords;
  slot.topic = memory.topic;
  const auto found = m_memory_slots.find(memory.id);
  if (found != m_memory_slots.end()) {
    m_memory_index.remove(found->second.document);
    found->second = std::move(slot);
  } else {
    m_memory_slots.emplace(memory.id, std::move(slot));
  }
}

void SearchIndex::drop_memory(std::string_view id) {
  const auto found = m_memory_slots.find(id);
  if (found == m_memory_slots.end()) {
    return;
  }
  m_memory_index.remove(found->second.document);
  m_memory_slots.erase(found);
}

void SearchIndex::refresh(const std::vector<Memory>& memories, const Snapshot& snapshot) {
  thaw();
  std::set<std::string, std::less<>> current;
  for (const Memory& memory : memories) {
    if (!memory.active()) {
      continue;
    }
    current.insert(memory.id);
    const auto found = m_memory_slots.find(memory.id);
    if (found != m_memory_slots.end() && found->second.blob_oid == memory.blob_oid &&
        found->second.path == memory.path) {
      continue;
    }
    const std::optional<std::string> bytes = snapshot.read(memory.path);
    if (!bytes) {
      continue;
    }
    set_memory(memory, searchable_body(split_frontmatter(*bytes).body(*bytes)), {});
  }
  std::vector<std::string> gone;
  for (const auto& [id, slot] : m_memory_slots) {
    if (!current.contains(id)) {
      gone.push_back(id);
    }
  }
  for (const std::string& id : gone) {
    drop_memory(id);
  }
  if (m_memory_index.dead() > m_memory_slots.size()) {
    compact();
  }
  refresh_working(snapshot);
}

void SearchIndex::compact() {
  const std::vector<std::uint32_t> renumbered = m_memory_index.compact();
  for (auto& [id, slot] : m_memory_slots) {
    slot.document = renumbered[slot.document];
  }
}

void SearchIndex::refresh_working(const Snapshot& snapshot) {
  recall::Metadata metadata;
  if (const auto bytes = snapshot.read(recall::k_metadata_path)) {
    try {
      metadata = recall::parse_metadata(*bytes, recall::k_metadata_path).records;
    } catch (const std::bad_alloc&) {
      throw;  // the process's condition, not the file's: the command ends on it
    } catch (const std::exception&) {
      // Unreadable metadata only loses the superseded marks; `git vault recall maintain`
      // reports it.
    }
  }
  m_entries.clear();
  m_entry_documents.clear();
  for (const recall::ParsedFile& parsed : recall::scan_managed_files(snapshot)) {
    const std::set<int> superseded = superseded_lines(parsed, metadata);
    for (const recall::Entry& entry : parsed.entries) {
      if (superseded.contains(entry.line)) {
        continue;
      }
      EntrySlot slot;
      slot.id = entry.id;
      slot.path = parsed.file.path;
      slot.display_path = parsed.file.display_path;
      slot.tier = std::string(recall::tier_name(parsed.file.tier));
      slot.line = entry.line;
      slot.text = entry.text;
      // A claim block is one entry over several lines (doc/decisions.md, D18): its field lines
      // are searched too, while a hit shows the first line, which carries the id.
      std::string searchable = entry.text;
      if (const std::size_t first_end = entry.lines.find('\n'); first_end != std::string::npos) {
        searchable.append(entry.lines, first_end);
      }
      m_entry_documents.push_back(make_document({std::string_view{}, {}, {}, {}, searchable}));
      m_entries.push_back(std::move(slot));
    }
  }
}

std::vector<Hit> SearchIndex::memory_hits(
    const std::vector<std::string>& terms,
    const std::unordered_map<std::string, std::int64_t>& extra_retrievals, std::size_t limit,
    std::map<std::string, Shown, std::less<>>& shown, std::size_t& matched) const {
  // Every match is ordered by score, then retrievals, then id; only the best `limit` become
  // hits, so a term that thousands of memories hold costs no string per match.
  struct Candidate {
    Ranked ranked;
    std::string_view id;
    std::int64_t retrievals = 0;
    const MemorySlot* slot = nullptr;  // without a saved file
  };
  std::vector<Candidate> candidates;
  const auto extra = [&](std::string_view id) -> std::int64_t {
    if (extra_retrievals.empty()) {
      return 0;
    }
    const auto found = extra_retrievals.find(std::string(id));
    return found == extra_retrievals.end() ? 0 : found->second;
  };
  if (m_saved) {
    for (Ranked& ranked : m_saved->rank(terms)) {
      const auto document = static_cast<std::uint32_t>(ranked.document);
      std::string_view id = m_saved->memory_path(document);
      id = id.substr(id.rfind('/') + 1);
      id.remove_suffix(id.ends_with(".md") ? 3 : 0);
      const std::int64_t retrievals = m_saved->retrieval_count(document) + extra(id);
      candidates.push_back({std::move(ranked), id, retrievals, nullptr});
    }
  } else {
    std::vector<const std::pair<const std::string, MemorySlot>*> by_document(m_memory_index.size(),
                                                                             nullptr);
    for (const auto& entry : m_memory_slots) {
      by_document[entry.second.document] = &entry;
    }
    for (Ranked& ranked : m_memory_index.rank(terms)) {
      const auto& [id, slot] = *by_document[ranked.document];
      candidates.push_back({std::move(ranked), id, slot.retrieval_count + extra(id), &slot});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) {
                     if (!same_score(a.ranked.score, b.ranked.score)) {
                       return a.ranked.score > b.ranked.score;
                     }
                     if (a.retrievals != b.retrievals) {
                       return a.retrievals > b.retrievals;
                     }
                     return a.id < b.id;
                   });
  matched = candidates.size();
  if (candidates.size() > limit) {
    candidates.resize(limit);
  }
  std::vector<Hit> hits;
  hits.reserve(candidates.size());
  for (Candidate& candidate : candidates) {
    Shown show;
    if (candidate.slot != nullptr) {
      show = {candidate.slot->path, candidate.slot->title, candidate.slot->summary,
              candidate.slot->keywords, candidate.slot->topic};
    } else {
      SavedMemory saved = m_saved->memory(static_cast<std::uint32_t>(candidate.ranked.document));
      show = {std::move(saved.path), std::move(saved.title), std::move(saved.summary),
              std::move(saved.keywords), std::move(saved.topic)};
    }
    Hit hit;
    hit.kind = Hit::Kind::memory;
    hit.id = std::string(candidate.id);
    hit.path = show.path;
    hit.score = candidate.ranked.score;
    hit.title = show.title;
    hit.terms = std::move(candidate.ranked.terms);
    shown.emplace(hit.id, std::move(show));
    hits.push_back(std::move(hit));
  }
  return hits;
}

std::vector<Hit> SearchIndex::entry_hits(const std::vector<std::string>& terms) const {
  std::vector<Hit> hits;
  for (Ranked& ranked : rank(m_entry_documents, terms)) {
    const EntrySlot& slot = m_entries[ranked.document];
    Hit hit;
    hit.kind = Hit::Kind::entry;
    hit.id = slot.id;
    hit.path = slot.path;
    hit.line = slot.line;
    hit.score = ranked.score;
    hit.title = slot.display_path;
    hit.snippet = clip(slot.text, 0, 160);
    hit.terms = std::move(ranked.terms);
    hit.tier = slot.tier;
    hits.push_back(std::move(hit));
  }
  return hits;
}

std::vector<Hit> SearchIndex::search(
    std::string_view query, Scope scope, std::size_t limit, const Snapshot& snapshot,
    const std::unordered_map<std::string, std::int64_t>& extra_retrievals,
    std::size_t* matched) const {
  const std::vector<std::string> terms = query_terms(query);
  std::vector<Hit> hits;
  std::map<std::string, Shown, std::less<>> shown_memories;
  std::size_t memories_matched = 0;
  if (scope != Scope::working) {
    hits = memory_hits(terms, extra_retrievals, limit, shown_memories, memories_matched);
  }
  if (matched != nullptr) {
    *matched = memories_matched;
  }
  if (scope != Scope::memories) {
    std::vector<Hit> entries = entry_hits(terms);
    if (matched != nullptr) {
      *matched += entries.size();
    }
    // Archive entries come after everything else, as recall searches the archive last; the
    // rest interleave with memories by score (memories first on a tie).
    const auto archive_last = [](const Hit& hit) { return hit.tier == "archive" ? 1 : 0; };
    std::vector<Hit> merged;
    merged.reserve(hits.size() + entries.size());
    std::merge(std::make_move_iterator(hits.begin()), std::make_move_iterator(hits.end()),
               std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.end()),
               std::back_inserter(merged), [](const Hit& entry, const Hit& memory) {
                 return !same_score(entry.score, memory.score) && entry.score > memory.score;
               });
    std::stable_sort(merged.begin(), merged.end(),
                     [&](const Hit& a, const Hit& b) { return archive_last(a) < archive_last(b); });
    hits = std::move(merged);
  }
  if (hits.size() > limit) {
    hits.resize(limit);
  }
  // Results name the query's own words, not their folded forms (`caches`, not `cach`).
  std::map<std::string, std::string, std::less<>> shown;
  std::string normalized;
  for_each_word(query, [&](std::string_view word, std::size_t) {
    normalize_term(word, normalized);
    shown.emplace(normalized, util::to_lower_ascii(word));
  });
  // Snippets for memories come from their files, read again for the few hits shown.
  for (Hit& hit : hits) {
    if (hit.kind != Hit::Kind::memory) {
      continue;
    }
    const Shown& slot = shown_memories.at(hit.id);
    const std::optional<std::string> bytes = snapshot.read(slot.path);
    if (bytes) {
      const FrontmatterSplit split = split_frontmatter(*bytes);
      // The `# title` line repeats the title shown anyway: the snippet comes from what follows.
      const std::string body = searchable_body(split.body(*bytes));
      const BodySections sections = locate_sections(body);
      const std::size_t from = sections.title_line ? sections.title_line->end : 0;
      if (const auto snippet = best_line(body.substr(from), hit.terms)) {
        hit.line = count_lines_before(*bytes, split.body_begin + from) + snippet->line;
        hit.snippet = snippet->text;
        continue;
      }
      // Only the frontmatter matched: show the first field that holds a term.
      for (const auto& [key, text] : {std::pair<std::string_view, std::string>{"title", slot.title},
                                      {"summary", slot.summary},
                                      {"keywords", util::join(slot.keywords, ", ")},
                                      {"topic", slot.topic}}) {
        if (const auto snippet = best_line(text, hit.terms)) {
          const FrontmatterKey* field = split.find(key);
          hit.line = field != nullptr ? field->first_line : 1;
          hit.snippet = snippet->text;
          break;
        }
      }
    }
    if (hit.snippet.empty()) {
      hit.line = 1;
      hit.snippet = slot.summary.empty() ? slot.title : slot.summary;
    }
  }
  for (Hit& hit : hits) {
    for (std::string& term : hit.terms) {
      if (const auto found = shown.find(term); found != shown.end()) {
        term = found->second;
      }
    }
  }
  return hits;
}

}  // namespace gv::search
