#include "core/search/search.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <set>

#include "core/memory/body.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/parse.hpp"
#include "core/recall/entry_title.hpp"
#include "core/recall/metadata.hpp"
#include "core/recall/scan.hpp"
#include "core/search/analyzer.hpp"
#include "core/search/snippet.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/text.hpp"

namespace gv::search {
namespace {

int count_lines_before(std::string_view text, std::size_t offset) {
  return static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

// Pseudo-relevance feedback (doc/search.md, "Expansion"): the words that best tell the first
// few memories apart join the query at a fraction of a task word's weight. Measured on
// bench/retrieval: 3 documents, 8 words and half weight lifted memory nDCG@5 0.863 -> 0.874 and
// working-memory recall@5 0.76 -> 0.81; more words or more weight did not help.
constexpr std::size_t k_feedback_documents = 3;
constexpr std::size_t k_feedback_terms = 8;
constexpr double k_feedback_weight = 0.5;
// Feedback needs a vault where the first three memories are a small sample: in a vault of a
// handful, they are most of it and their words say nothing about the task.
constexpr std::size_t k_feedback_least_memories = 30;
// Reciprocal rank fusion of memories and entries; the constant only matters against other
// fused lists, and 60 is the customary one.
constexpr double k_fusion_rank_offset = 60.0;

// Entry neighbours (doc/search.md): an entry is indexed with the titles and keywords of the
// three memories its eight rarest words rank first, in a field that weighs as its own text.
// Chosen on the odd-numbered tasks of bench/retrieval (default-scope entry recall@5 0.750 ->
// 0.846) and confirmed on the even ones (0.500 -> 0.641); memory order is unchanged.
constexpr std::size_t k_neighbour_memories = 3;
constexpr std::size_t k_neighbour_terms = 8;
// A word more memories hold than this does not single out an entry's neighbours; leaving it out
// bounds the cost at 10,000 memories and more to a few thousand postings per entry.
constexpr std::size_t k_neighbour_term_documents = 500;

// An entry's fields: the heading of its claim block (as a memory's title), its neighbours'
// titles and keywords (in the keywords' place, at the weight of the entry's own words), and its
// text, whose words weigh as a memory's body words do.
const RankingParams k_entry_params = [] {
  RankingParams params;
  params.fields[static_cast<std::size_t>(Field::keywords)].weight = 1.0;
  return params;
}();

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
  const BodySections sections = locate_sections(body);
  if (sections.history) {
    blank(*sections.history);
  }
  // The links say what else to read, not what this memory is about: a task that says
  // "connection" would otherwise match every memory with a `## Connections` list, and a word
  // in a linked id would rank the memory that links to it.
  if (sections.connections) {
    blank(*sections.connections);
  }
  for_each_wiki_link(body, [&](const WikiLinkSpan& link) {
    const std::string_view inner = link.inner;
    const std::size_t bar = inner.find('|');
    // `[[MEM-x|the retry note]]` keeps its alias: that much is prose.
    blank({link.offset, link.offset + (bar == std::string_view::npos ? inner.size() : bar + 1)});
  });
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

std::vector<std::pair<std::string, std::int64_t>> SearchIndex::retrieval_counts() const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  if (m_saved) {
    for (std::uint32_t d = 0; d < m_saved->memory_count(); ++d) {
      out.emplace_back(memory_id_from_path(m_saved->memory_path(d)), m_saved->retrieval_count(d));
    }
    return out;
  }
  for (const auto& [id, slot] : m_memory_slots) {
    out.emplace_back(id, slot.retrieval_count);
  }
  return out;
}

void SearchIndex::compact() {
  const std::vector<std::uint32_t> renumbered = m_memory_index.compact();
  for (auto& [id, slot] : m_memory_slots) {
    slot.document = renumbered[slot.document];
  }
}

void SearchIndex::refresh_working(const Snapshot& snapshot) {
  // Every refresh ends here: what the last expansion was ranked from may have changed.
  m_expansion.reset();
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
  m_entry_index.reset();
  for (const recall::ParsedFile& parsed : recall::scan_managed_files(snapshot)) {
    const std::set<int> superseded = superseded_lines(parsed, metadata);
    const std::vector<std::string> titles = recall::entry_titles(parsed);
    for (std::size_t e = 0; e < parsed.entries.size(); ++e) {
      const recall::Entry& entry = parsed.entries[e];
      if (superseded.contains(entry.line)) {
        continue;
      }
      EntrySlot slot;
      slot.id = entry.id;
      slot.path = parsed.file.path;
      slot.display_path = parsed.file.display_path;
      slot.tier = std::string(recall::tier_name(parsed.file.tier));
      slot.line = entry.line;
      // A claim block under a heading of its own is named by the heading (`## Sidebar sync`
      // over `- **Status**: open`): it ranks as the entry's title and is shown before the
      // first line, which alone would not say what the entry is about, while the heading
      // alone would hide what was decided.
      slot.text = titles[e].empty() ? entry.text : titles[e] + ": " + entry.text;
      // A claim block is one entry over several lines (doc/decisions.md, D18): its field lines
      // are searched too, while a hit shows the first line, which carries the id.
      std::string searchable = entry.text;
      if (const std::size_t first_end = entry.lines.find('\n'); first_end != std::string::npos) {
        searchable.append(entry.lines, first_end);
      }
      slot.heading = titles[e];
      slot.searchable = std::move(searchable);
      m_entries.push_back(std::move(slot));
    }
  }
}

std::vector<Hit> SearchIndex::memory_hits(
    const Query& query, const std::unordered_map<std::string, std::int64_t>& extra_retrievals,
    std::size_t limit, std::map<std::string, Shown, std::less<>>& shown,
    std::size_t& matched) const {
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
    for (Ranked& ranked : m_saved->rank(query.terms, {}, query.weights)) {
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
    for (Ranked& ranked : m_memory_index.rank(query.terms, {}, query.weights)) {
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
  if (query.own_terms_only) {
    std::erase_if(candidates, [](const Candidate& c) { return c.ranked.coverage <= 0.0; });
  }
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
    hit.coverage = candidate.ranked.coverage;
    hit.title = show.title;
    hit.terms = std::move(candidate.ranked.terms);
    shown.emplace(hit.id, std::move(show));
    hits.push_back(std::move(hit));
  }
  return hits;
}

const InvertedIndex& SearchIndex::entry_index() const {
  if (!m_entry_index) {
    InvertedIndex index;
    std::vector<double> scratch;
    // In a vault of a handful of memories, every entry's nearest are the same few: they would
    // say nothing about the entry (as with feedback, doc/search.md, "Expansion").
    const bool neighbours = memory_count() >= k_feedback_least_memories;
    std::vector<const MemorySlot*> by_document;
    if (neighbours && !m_saved) {
      by_document.resize(m_memory_index.size(), nullptr);
      for (const auto& [id, slot] : m_memory_slots) {
        by_document[slot.document] = &slot;
      }
    }
    for (const EntrySlot& entry : m_entries) {
      const std::string around =
          neighbours ? neighbour_text(entry, by_document, scratch) : std::string();
      index.add({entry.heading, around, {}, {}, entry.searchable});
    }
    m_entry_index = std::move(index);
  }
  return *m_entry_index;
}

std::string SearchIndex::neighbour_text(const EntrySlot& entry,
                                        const std::vector<const MemorySlot*>& by_document,
                                        std::vector<double>& scratch) const {
  // The entry's rarest words among the memories: a handful of distinctive words finds its
  // nearest memories better than all of them (bench/retrieval), and costs far less.
  std::vector<std::pair<std::size_t, std::string>> by_rarity;
  for (std::string& term : query_terms(entry.heading + "\n" + entry.searchable)) {
    const std::size_t n = memory_frequency(term);
    if (n > 0 && n <= k_neighbour_term_documents) {
      by_rarity.emplace_back(n, std::move(term));
    }
  }
  std::sort(by_rarity.begin(), by_rarity.end());
  by_rarity.erase(std::unique(by_rarity.begin(), by_rarity.end()), by_rarity.end());
  std::vector<std::string> terms;
  for (std::size_t i = 0; i < by_rarity.size() && terms.size() < k_neighbour_terms; ++i) {
    terms.push_back(std::move(by_rarity[i].second));
  }
  if (terms.empty()) {
    return {};
  }
  std::string text;
  const auto append = [&text](std::string_view title, const std::vector<std::string>& keywords) {
    text.append(title).append(" ; ").append(util::join(keywords, " ; ")).append("\n");
  };
  if (m_saved) {
    for (const Scored& near : m_saved->top(terms, {}, k_neighbour_memories, scratch)) {
      const SavedMemory memory = m_saved->memory(near.document);
      append(memory.title, memory.keywords);
    }
    return text;
  }
  for (const Scored& near : m_memory_index.top(terms, {}, k_neighbour_memories, scratch)) {
    if (const MemorySlot* slot = by_document[near.document]) {
      append(slot->title, slot->keywords);
    }
  }
  return text;
}

std::vector<Hit> SearchIndex::entry_hits(const Query& query) const {
  std::vector<Hit> hits;
  for (Ranked& ranked : entry_index().rank(query.terms, k_entry_params, query.weights)) {
    if (query.own_terms_only && ranked.coverage <= 0.0) {
      continue;
    }
    const EntrySlot& slot = m_entries[ranked.document];
    Hit hit;
    hit.kind = Hit::Kind::entry;
    hit.id = slot.id;
    hit.path = slot.path;
    hit.line = slot.line;
    hit.score = ranked.score;
    hit.coverage = ranked.coverage;
    hit.title = slot.display_path;
    hit.snippet = clip(slot.text, 0, 160);
    hit.terms = std::move(ranked.terms);
    hit.tier = slot.tier;
    hits.push_back(std::move(hit));
  }
  return hits;
}

SearchIndex::Query SearchIndex::expand(std::vector<std::string> terms,
                                       const Snapshot& snapshot) const {
  Query query;
  query.original = terms.size();
  query.terms = std::move(terms);
  query.weights.assign(query.terms.size(), 1.0);
  if (query.terms.empty() || memory_count() < k_feedback_least_memories) {
    return query;
  }
  std::map<std::string, Shown, std::less<>> shown;
  std::size_t matched = 0;
  const std::vector<Hit> top = memory_hits(query, {}, k_feedback_documents, shown, matched);
  if (top.empty()) {
    return query;
  }
  const double live = static_cast<double>(memory_count());
  std::map<std::string, double, std::less<>> weight;
  Analyzer analyzer;
  const RankingParams params;
  for (const Hit& hit : top) {
    const std::optional<std::string> bytes = snapshot.read(hit.path);
    if (!bytes) {
      continue;
    }
    const FrontmatterSplit split = split_frontmatter(*bytes);
    const Shown& slot = shown.at(hit.id);
    const std::string body = searchable_body(split.body(*bytes));
    const std::string keywords = util::join(slot.keywords, " ; ");
    const std::array<std::string_view, k_field_count> fields{slot.title, keywords, slot.topic,
                                                             slot.summary, body};
    std::map<std::string, double, std::less<>> tf;
    double total = 0.0;
    for (std::size_t f = 0; f < k_field_count; ++f) {
      for_each_token(fields[f], [&](std::string_view token, std::size_t) {
        for (const std::string_view term : analyzer.query_terms_of(token)) {
          tf[std::string(term)] += params.fields[f].weight;
          total += params.fields[f].weight;
        }
      });
    }
    const double doc_weight = hit.score / top.front().score;
    for (const auto& [term, count] : tf) {
      weight[term] += doc_weight * count / total;
    }
  }
  std::vector<std::pair<double, std::string>> candidates;
  for (const auto& [term, w] : weight) {
    if (std::find(query.terms.begin(), query.terms.end(), term) != query.terms.end()) {
      continue;
    }
    const double n = static_cast<double>(memory_frequency(term));
    if (n <= 0 || n > live / 2) {
      continue;
    }
    const double idf = std::log(1.0 + (live - n + 0.5) / (n + 0.5));
    candidates.emplace_back(w * idf, term);
  }
  std::sort(candidates.begin(), candidates.end(), std::greater<>());
  for (const auto& [w, term] : candidates) {
    query.expansion.emplace_back(term, w / candidates.front().first);
  }
  return query;
}

const SearchIndex::Query& SearchIndex::expansion_of(std::string_view text,
                                                    const Snapshot& snapshot) const {
  if (!m_expansion || m_expansion->first != text) {
    m_expansion.reset();
    m_expansion.emplace(std::string(text), expand(query_terms(text), snapshot));
  }
  return m_expansion->second;
}

SearchIndex::Query SearchIndex::Query::with_expansion(std::size_t count, double beta) const {
  Query out = *this;
  for (std::size_t i = 0; i < count && i < expansion.size(); ++i) {
    out.terms.push_back(expansion[i].first);
    out.weights.push_back(beta * expansion[i].second);
  }
  return out;
}

std::vector<Hit> SearchIndex::rank(
    std::string_view text, Scope scope, std::size_t limit, const Snapshot& snapshot,
    const std::unordered_map<std::string, std::int64_t>& extra_retrievals, std::size_t* matched,
    std::map<std::string, Shown, std::less<>>* shown_memories, bool own_terms_only) const {
  Query query = expansion_of(text, snapshot).with_expansion(k_feedback_terms, k_feedback_weight);
  query.own_terms_only = own_terms_only;
  std::map<std::string, Shown, std::less<>> own_shown;
  std::map<std::string, Shown, std::less<>>& shown = shown_memories ? *shown_memories : own_shown;
  std::vector<Hit> hits;
  std::size_t memories_matched = 0;
  if (scope != Scope::working) {
    hits = memory_hits(query, extra_retrievals, std::max<std::size_t>(limit, 50), shown,
                       memories_matched);
  }
  if (matched != nullptr) {
    *matched = memories_matched;
  }
  if (scope != Scope::memories) {
    std::vector<Hit> entries = entry_hits(query);
    if (matched != nullptr) {
      *matched += entries.size();
    }
    if (scope == Scope::working || hits.empty()) {
      hits = std::move(entries);
    } else {
      // Each list keeps its own order and the two interleave by rank (doc/search.md,
      // "Fusion"): the scores of a one-line entry and of a whole memory do not compare.
      const auto fused = [](std::size_t rank) {
        return 1.0 / (k_fusion_rank_offset + static_cast<double>(rank));
      };
      std::vector<std::pair<double, Hit>> merged;
      for (std::size_t r = 0; r < hits.size(); ++r) {
        merged.emplace_back(fused(r + 1), std::move(hits[r]));
      }
      for (std::size_t r = 0; r < entries.size(); ++r) {
        merged.emplace_back(fused(r + 1), std::move(entries[r]));
      }
      std::stable_sort(merged.begin(), merged.end(), [](const auto& a, const auto& b) {
        if (!same_score(a.first, b.first)) {
          return a.first > b.first;
        }
        return a.second.kind == Hit::Kind::memory && b.second.kind == Hit::Kind::entry;
      });
      hits.clear();
      for (auto& [score, hit] : merged) {
        hits.push_back(std::move(hit));
      }
    }
  }
  if (hits.size() > limit) {
    hits.resize(limit);
  }
  // Only the task's own words are shown as the terms a hit holds.
  for (Hit& hit : hits) {
    std::erase_if(hit.terms, [&](const std::string& term) {
      return std::find(query.terms.begin(),
                       query.terms.begin() + static_cast<std::ptrdiff_t>(query.original),
                       term) == query.terms.begin() + static_cast<std::ptrdiff_t>(query.original);
    });
  }
  return hits;
}

std::vector<Hit> SearchIndex::search(
    std::string_view query, Scope scope, std::size_t limit, const Snapshot& snapshot,
    const std::unordered_map<std::string, std::int64_t>& extra_retrievals,
    std::size_t* matched) const {
  std::map<std::string, Shown, std::less<>> shown_memories;
  std::vector<Hit> hits =
      rank(query, scope, limit, snapshot, extra_retrievals, matched, &shown_memories, true);
  if (hits.size() > limit) {
    hits.resize(limit);
  }
  // Results name the query's own words, not their stems (`caches`, not `cach`): a compound's
  // whole form is the token, each part the part's own text.
  std::map<std::string, std::string, std::less<>> shown;
  Analyzer analyzer;
  std::vector<std::string_view> parts;
  for_each_token(query, [&](std::string_view token, std::size_t) {
    const std::vector<std::string_view>& terms_of_token = analyzer.terms_of(token);
    if (terms_of_token.empty()) {
      return;
    }
    shown.emplace(terms_of_token.front(), util::to_lower_ascii(token));
    if (terms_of_token.size() > 1) {
      split_token(token, parts);
      for (const std::string_view part : parts) {
        const std::string lowered = util::to_lower_ascii(part);
        shown.emplace(std::string(stem(lowered)), lowered);
      }
    }
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
