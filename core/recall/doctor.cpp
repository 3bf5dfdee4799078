#include "core/recall/doctor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "core/recall/gate.hpp"
#include "core/recall/ids.hpp"
#include "core/recall/metadata.hpp"
#include "core/util/text.hpp"

namespace gv::recall {
namespace {

constexpr std::size_t k_hex_length = 10;

bool is_id_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

int line_at(std::string_view bytes, std::size_t offset) {
  return 1 + static_cast<int>(std::count(
                 bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// One replacement in a file's bytes.
struct Edit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string bytes;
};

std::string apply_edits(std::string text, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(),
            [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
  for (const Edit& edit : edits) {
    text.replace(edit.begin, edit.end - edit.begin, edit.bytes);
  }
  return text;
}

std::string fix_text() { return std::string(k_doctor_fix_command); }

// `^tr-` + 10 lowercase hex, ended by a blank or the end of the line: the older spelling.
std::string respell(const ManagedFile& file, const std::string& bytes, DoctorReport& report) {
  std::vector<Edit> edits;
  for (std::size_t pos = bytes.find("^tr-"); pos != std::string::npos;
       pos = bytes.find("^tr-", pos + 1)) {
    const std::size_t hex = pos + 4;
    if (hex + k_hex_length > bytes.size() ||
        !std::all_of(bytes.begin() + static_cast<std::ptrdiff_t>(hex),
                     bytes.begin() + static_cast<std::ptrdiff_t>(hex + k_hex_length), is_id_hex)) {
      continue;
    }
    const std::size_t after = hex + k_hex_length;
    if (after < bytes.size() && bytes[after] != ' ' && bytes[after] != '\t' &&
        bytes[after] != '\r' && bytes[after] != '\n') {
      continue;
    }
    const std::string id = "tr" + bytes.substr(hex, k_hex_length);
    edits.push_back({pos, after, "^" + id});
    report.items.push_back({"old-id-spelling", file.path, line_at(bytes, pos), id,
                            fmt::format("`^tr-{}` is the older spelling of `^{}`",
                                        bytes.substr(hex, k_hex_length), id),
                            fix_text(), true});
    ++report.respelled;
  }
  return apply_edits(bytes, std::move(edits));
}

std::string_view place_name(StrayPlace place) {
  switch (place) {
    case StrayPlace::heading:
      return "a heading";
    case StrayPlace::block_line:
      return "a later line of a claim block";
    case StrayPlace::continuation:
      return "an indented line";
    case StrayPlace::placeholder:
      return "a placeholder";
    case StrayPlace::other:
      return "a line that is not a list entry";
  }
  return "a line";
}

// The edit that removes a stray token (and the blanks before it) from its line.
Edit drop(const StrayId& stray) { return {stray.token_begin, stray.token_end, {}}; }

// The edit that puts ` ^<id>` at the end of an entry's first line (trailing blanks dropped, as
// init-ids does).
Edit tag(const Entry& entry, const std::string& id) {
  const std::size_t kept = util::trim_right_blanks(entry.raw).size();
  return {entry.begin + kept, entry.content_end, " ^" + id};
}

struct Where {
  std::string path;
  int line = 0;
};

// Moves every stray id that has one owner onto it, then drops copies of ids that tag an entry
// elsewhere. Returns the new bytes per file (scan order).
std::vector<std::string> place_strays(const std::vector<ParsedFile>& files, DoctorReport& report) {
  std::map<std::string, Where> tagged;  // id -> the entry it tags after the fix
  for (const ParsedFile& parsed : files) {
    for (const Entry& entry : parsed.entries) {
      if (entry.state == EntryState::tagged) {
        tagged.emplace(entry.id, Where{parsed.file.path, entry.line});
      }
    }
  }
  std::vector<std::vector<Edit>> edits(files.size());
  std::vector<std::vector<const StrayId*>> ownerless(files.size());
  for (std::size_t f = 0; f < files.size(); ++f) {
    const ParsedFile& parsed = files[f];
    std::set<std::size_t> given;  // entries that receive an id in this run
    for (const StrayId& stray : parsed.strays) {
      if (!stray.owner) {
        ownerless[f].push_back(&stray);
        continue;
      }
      const Entry& owner = parsed.entries[*stray.owner];
      const std::string where = fmt::format("line {}", owner.line);
      if (owner.state == EntryState::tagged && owner.id == stray.id) {
        edits[f].push_back(drop(stray));
        ++report.dropped;
        report.items.push_back({"misplaced-id", parsed.file.path, stray.line, stray.id,
                                fmt::format("`^{}` on {} repeats the id of its entry ({})",
                                            stray.id, place_name(stray.place), where),
                                fix_text(), true});
        continue;
      }
      const auto elsewhere = tagged.find(stray.id);
      if (owner.state != EntryState::untagged || given.contains(*stray.owner) ||
          elsewhere != tagged.end()) {
        const std::string why = elsewhere != tagged.end()
                                    ? fmt::format("the id already tags {}:{}",
                                                  elsewhere->second.path, elsewhere->second.line)
                                    : fmt::format("its entry ({}) has an id already", where);
        report.items.push_back(
            {"stray-id", parsed.file.path, stray.line, stray.id,
             fmt::format("`^{}` on {} cannot move: {}", stray.id, place_name(stray.place), why),
             "delete it, or move it by hand to the end of the entry it belongs to", false});
        continue;
      }
      edits[f].push_back(drop(stray));
      edits[f].push_back(tag(owner, stray.id));
      given.insert(*stray.owner);
      tagged.emplace(stray.id, Where{parsed.file.path, owner.line});
      ++report.moved;
      report.items.push_back({"misplaced-id", parsed.file.path, stray.line, stray.id,
                              fmt::format("`^{}` on {} belongs to the entry at {}", stray.id,
                                          place_name(stray.place), where),
                              fix_text(), true});
    }
  }
  for (std::size_t f = 0; f < files.size(); ++f) {
    for (const StrayId* stray : ownerless[f]) {
      const auto elsewhere = tagged.find(stray->id);
      if (elsewhere != tagged.end()) {
        edits[f].push_back(drop(*stray));
        ++report.dropped;
        report.items.push_back(
            {"stray-id", files[f].file.path, stray->line, stray->id,
             fmt::format("`^{}` on {} is a copy: the id tags {}:{}; removed here", stray->id,
                         place_name(stray->place), elsewhere->second.path, elsewhere->second.line),
             fix_text(), true});
        continue;
      }
      report.items.push_back(
          {"stray-id", files[f].file.path, stray->line, stray->id,
           fmt::format("`^{}` on {} tags no entry{}", stray->id, place_name(stray->place),
                       stray->place == StrayPlace::heading
                           ? " (its section does not hold exactly one entry)"
                           : ""),
           "move it by hand to the end of the entry it belongs to, or delete it", false});
    }
  }
  std::vector<std::string> out;
  for (std::size_t f = 0; f < files.size(); ++f) {
    out.push_back(apply_edits(files[f].bytes, std::move(edits[f])));
  }
  return out;
}

// The reader's warnings about spellings that a rewrite normalises: an id key with a caret or
// without `tr`, a tier written as a file path, a date without a time (read as midnight UTC).
bool normalised_by_rewrite(const Finding& finding) {
  const std::string& message = finding.message;
  return ((message.starts_with("key `") || message.starts_with("tier `")) &&
          message.find("; read as `") != std::string::npos) ||
         message.find("is a date without a time") != std::string::npos;
}

bool is_date(std::string_view text) {
  return text.size() == 10 && text[4] == '-' && text[7] == '-' &&
         std::all_of(text.begin(), text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || c == '-'; });
}

// A date-only timestamp is read as midnight UTC; it is written that way.
void complete_dates(Metadata& metadata) {
  for (auto& [id, record] : metadata) {
    for (std::optional<std::string>* field :
         {&record.created_at, &record.last_reviewed_at, &record.snoozed_until}) {
      if (*field && is_date(**field)) {
        **field += "T00:00:00Z";
      }
    }
  }
}

void diagnose_metadata(const DoctorInput& input, const std::vector<ParsedFile>& files,
                       DoctorReport& report) {
  const std::string path{k_metadata_path};
  Metadata metadata;
  std::set<std::string> respelled_keys;  // ids whose key the file spells differently
  if (input.metadata_bytes) {
    MetadataRead read = parse_metadata(*input.metadata_bytes, path);
    metadata = std::move(read.records);
    for (Finding& finding : read.findings) {
      const bool fixed = normalised_by_rewrite(finding);
      if (fixed && finding.message.starts_with("key `")) {
        respelled_keys.insert(finding.id);
      }
      report.items.push_back(
          {"metadata", finding.path, finding.line, finding.id, std::move(finding.message),
           fixed ? fix_text() : std::string("kept as written; edit it by hand"), fixed});
    }
  }
  const Metadata before = metadata;
  complete_dates(metadata);
  std::vector<InlineId> inline_ids;
  std::set<std::string> on_entries;
  for (const ParsedFile& parsed : files) {
    for (const Entry& entry : parsed.entries) {
      if (entry.state == EntryState::tagged) {
        inline_ids.push_back({entry.id, parsed.file.tier});
        on_entries.insert(entry.id);
      }
    }
  }
  // An id on two entries has no one file to take its tier from: a person settles which entry
  // keeps it (reported as duplicate-id), and the record stays as it is until then.
  std::map<std::string_view, int> uses;
  for (const InlineId& inline_id : inline_ids) {
    ++uses[inline_id.id];
  }
  std::vector<InlineId> single_use;
  for (const InlineId& inline_id : inline_ids) {
    if (uses[inline_id.id] == 1) {
      single_use.push_back(inline_id);
    }
  }
  const int retiered = recompute_tiers(metadata, single_use);
  if (retiered > 0) {
    report.items.push_back({"metadata",
                            path,
                            std::nullopt,
                            {},
                            fmt::format("{} record(s) name another tier than their entry's "
                                        "file; the file's tier is written",
                                        retiered),
                            fix_text(),
                            true});
  }
  const int added = add_missing_records(metadata, inline_ids, input.now);
  if (added > 0) {
    report.items.push_back(
        {"metadata",
         path,
         std::nullopt,
         {},
         fmt::format("{} id(s) on entries have no record; records are added", added),
         fix_text(),
         true});
  }
  for (const auto& [id, record] : metadata) {
    const auto old = before.find(id);
    if (old == before.end() || respelled_keys.contains(id) ||
        serialize_metadata({{id, record}}) != serialize_metadata({{id, old->second}})) {
      ++report.metadata_changed;
    }
    if (!on_entries.contains(id)) {
      report.items.push_back(
          {"orphan", path, std::nullopt, id,
           fmt::format("record `{}` belongs to no entry (an orphan; maintain keeps and counts it)",
                       id),
           fmt::format("put `^{}` back at the end of its entry, or delete the record", id), false});
    }
  }
  const std::string bytes = serialize_metadata(metadata);
  if ((input.metadata_bytes && bytes != *input.metadata_bytes) ||
      (!input.metadata_bytes && !metadata.empty())) {
    report.writes.emplace(path, bytes);
    if (report.metadata_changed == 0) {
      report.metadata_reformatted = true;
      report.items.push_back({"metadata",
                              path,
                              std::nullopt,
                              {},
                              "not in the canonical layout (keys sorted, 2-space indent); "
                              "rewritten in it",
                              fix_text(),
                              true});
    }
  }
}

void diagnose_daily_logs(const DoctorInput& input, const std::vector<ParsedFile>& files,
                         DoctorReport& report) {
  std::map<std::string, Where> tagged;
  for (const ParsedFile& parsed : files) {
    for (const Entry& entry : parsed.entries) {
      if (entry.state == EntryState::tagged) {
        tagged.emplace(entry.id, Where{parsed.file.path, entry.line});
      }
    }
  }
  for (const auto& [path, bytes] : input.daily_logs) {
    for (std::size_t pos = bytes.find("^tr"); pos != std::string::npos;
         pos = bytes.find("^tr", pos + 1)) {
      const std::string id = bytes.substr(pos + 1, 2 + k_hex_length);
      const auto entry = tagged.find(id);
      if (!is_valid_id(id) || entry == tagged.end()) {
        continue;
      }
      report.items.push_back(
          {"daily-log-id", path, line_at(bytes, pos), id,
           fmt::format("`^{}` also tags {}:{}; daily-log lines carry no ids", id,
                       entry->second.path, entry->second.line),
           fmt::format("delete ` ^{}` from this line (it never blocks: daily logs are not checked)",
                       id),
           false});
    }
  }
}

}  // namespace

DoctorReport diagnose(const DoctorInput& input) {
  DoctorReport report;
  std::vector<ParsedFile> respelled;
  for (const ParsedFile& parsed : input.files) {
    respelled.push_back(parse_file(parsed.file, respell(parsed.file, parsed.bytes, report)));
  }
  const std::vector<std::string> placed = place_strays(respelled, report);
  std::vector<ParsedFile> after;
  for (std::size_t f = 0; f < respelled.size(); ++f) {
    after.push_back(parse_file(respelled[f].file, placed[f]));
    if (placed[f] != input.files[f].bytes) {
      report.writes.emplace(input.files[f].file.path, placed[f]);
    }
  }
  diagnose_metadata(input, after, report);
  diagnose_daily_logs(input, after, report);
  for (const ParsedFile& parsed : after) {
    for (const Entry& entry : parsed.entries) {
      if (entry.state == EntryState::untagged) {
        ++report.untagged_after;
      } else if (entry.state == EntryState::malformed) {
        const Finding finding = malformed_id_finding(parsed.file, entry, Severity::error);
        report.items.push_back(
            {"malformed-id", finding.path, finding.line, {}, finding.message, finding.fix, false});
      }
    }
  }
  // Duplicates block maintain as missing ids do; only a person can tell which line keeps the id.
  for (const Finding& finding : id_findings(after)) {
    if (finding.check == "duplicate-id") {
      report.items.push_back({"duplicate-id", finding.path, finding.line, finding.id,
                              finding.message, finding.fix, false});
    }
  }
  std::stable_sort(report.items.begin(), report.items.end(),
                   [](const DoctorItem& a, const DoctorItem& b) {
                     return std::tie(a.path, a.line) < std::tie(b.path, b.line);
                   });
  return report;
}

}  // namespace gv::recall
