#include "core/recall/gate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "core/recall/doctor.hpp"
#include "core/recall/id_order.hpp"

namespace gv::recall {
namespace {

constexpr std::size_t k_quote_limit = 60;

// Cuts at a UTF-8 character boundary so a message never ends in half a character.
std::string quote_text(std::string_view text) {
  if (text.size() <= k_quote_limit) {
    return std::string{text};
  }
  std::size_t cut = k_quote_limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0u) == 0x80u) {
    --cut;
  }
  return std::string{text.substr(0, cut)} + "…";
}

EntryLocation location_of(const ManagedFile& file, const Entry& entry) {
  return EntryLocation{file.path, file.display_path, entry.line};
}

std::string list_locations(const DuplicateId& duplicate) {
  std::string out;
  for (const EntryLocation& location : duplicate.locations) {
    if (!out.empty()) {
      out += ", ";
    }
    out += fmt::format("{} line {}", location.path, location.line);  // as the finding's path
  }
  return out;
}

// For each file, entry index -> the line of a stray id doctor --fix would move onto that
// untagged entry: its one owner, and an id that tags no entry anywhere (doc/decisions.md D18).
std::vector<std::map<std::size_t, int>> placeable_strays(const std::vector<ParsedFile>& files) {
  std::set<std::string_view> tagged;
  for (const ParsedFile& parsed : files) {
    for (const Entry& entry : parsed.entries) {
      if (entry.state == EntryState::tagged) {
        tagged.insert(entry.id);
      }
    }
  }
  std::vector<std::map<std::size_t, int>> placeable(files.size());
  for (std::size_t f = 0; f < files.size(); ++f) {
    for (const StrayId& stray : files[f].strays) {
      if (stray.owner && files[f].entries[*stray.owner].state == EntryState::untagged &&
          !tagged.contains(stray.id)) {
        placeable[f].emplace(*stray.owner, stray.line);  // the first such id wins, as in doctor
      }
    }
  }
  return placeable;
}

}  // namespace

int IdGate::doctor_restores() const {
  return static_cast<int>(
      std::count_if(untagged.begin(), untagged.end(),
                    [](const EntryLocation& location) { return location.stray_line > 0; }) +
      std::count_if(malformed.begin(), malformed.end(),
                    [](const EntryLocation& location) { return location.older_spelling; }));
}

IdGate evaluate_id_gate(const std::vector<ParsedFile>& files) {
  IdGate gate;
  const std::vector<std::map<std::size_t, int>> placeable = placeable_strays(files);
  for (std::size_t f = 0; f < files.size(); ++f) {
    const ParsedFile& parsed = files[f];
    for (std::size_t e = 0; e < parsed.entries.size(); ++e) {
      const Entry& entry = parsed.entries[e];
      if (entry.state == EntryState::untagged) {
        gate.untagged.push_back(location_of(parsed.file, entry));
        if (const auto found = placeable[f].find(e); found != placeable[f].end()) {
          gate.untagged.back().stray_line = found->second;
        }
      } else if (entry.state == EntryState::malformed) {
        gate.malformed.push_back(location_of(parsed.file, entry));
        gate.malformed.back().older_spelling = older_spelling_id(entry.bad_token).has_value();
      }
    }
  }
  // Runs of one id in the sorted list are its lines in scan order; a run's first line orders
  // the duplicates as they were first seen.
  const std::vector<TaggedRef> refs = tagged_by_id(files);
  std::vector<std::pair<const TaggedRef*, DuplicateId>> duplicates;
  for (std::size_t begin = 0; begin < refs.size();) {
    std::size_t end = begin + 1;
    while (end < refs.size() && refs[end].key == refs[begin].key) {
      ++end;
    }
    if (end - begin > 1) {
      DuplicateId duplicate{std::string{id_view(id_of_key(refs[begin].key))}, {}};
      for (std::size_t i = begin; i < end; ++i) {
        const ParsedFile& parsed = files[refs[i].file];
        duplicate.locations.push_back(location_of(parsed.file, parsed.entries[refs[i].entry]));
      }
      duplicates.emplace_back(&refs[begin], std::move(duplicate));
    }
    begin = end;
  }
  std::sort(duplicates.begin(), duplicates.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first->file, a.first->entry) < std::tie(b.first->file, b.first->entry);
  });
  for (auto& [first, duplicate] : duplicates) {
    gate.duplicates.push_back(std::move(duplicate));
  }
  return gate;
}

Finding malformed_id_finding(const ManagedFile& file, const Entry& entry, Severity severity) {
  Finding finding;
  finding.check = "malformed-id";
  finding.severity = severity;
  finding.path = file.path;
  finding.line = entry.line;
  if (const std::optional<std::string> id = older_spelling_id(entry.bad_token)) {
    // Written by an older version: respelling keeps the id, and with it its metadata record.
    finding.message = fmt::format("`{}` is the older spelling of `^{}`", entry.bad_token, *id);
    finding.fix = std::string{k_doctor_fix_command};
    return finding;
  }
  finding.message = fmt::format(
      "malformed id `{}`: an id is a space, `^tr` and 10 lowercase hex digits at the end of the "
      "line; {} never rewrites a malformed id",
      quote_text(entry.bad_token), k_init_ids_command);
  finding.fix =
      "rewrite it as ` ^tr` and 10 lowercase hex digits at the line's end, or delete "
      "it and run " +
      std::string{k_init_ids_command};
  return finding;
}

std::vector<Finding> id_findings(const std::vector<ParsedFile>& files) {
  std::vector<Finding> findings;
  const std::vector<std::map<std::size_t, int>> placeable = placeable_strays(files);
  for (std::size_t f = 0; f < files.size(); ++f) {
    const ParsedFile& parsed = files[f];
    for (std::size_t e = 0; e < parsed.entries.size(); ++e) {
      const Entry& entry = parsed.entries[e];
      if (entry.state == EntryState::malformed) {
        findings.push_back(malformed_id_finding(parsed.file, entry, Severity::error));
      } else if (entry.state == EntryState::untagged) {
        Finding finding;
        finding.check = "missing-id";
        finding.severity = Severity::error;
        finding.path = parsed.file.path;
        finding.line = entry.line;
        finding.message = fmt::format("entry has no id: \"{}\"", quote_text(entry.text));
        finding.fix = std::string{k_init_ids_command};
        if (const auto found = placeable[f].find(e); found != placeable[f].end()) {
          // init-ids would give it a new id and leave the record of its own one orphaned.
          finding.message += fmt::format("; its id is on line {}", found->second);
          finding.fix = std::string{k_doctor_fix_command};
        }
        findings.push_back(std::move(finding));
      }
    }
  }
  for (const DuplicateId& duplicate : evaluate_id_gate(files).duplicates) {
    const std::string where = list_locations(duplicate);
    for (std::size_t i = 1; i < duplicate.locations.size(); ++i) {
      Finding finding;
      finding.check = "duplicate-id";
      finding.severity = Severity::error;
      finding.path = duplicate.locations[i].path;
      finding.line = duplicate.locations[i].line;
      finding.id = duplicate.id;
      finding.message = fmt::format("duplicate id ^{} on {} lines: {}", duplicate.id,
                                    duplicate.locations.size(), where);
      finding.fix =
          fmt::format("delete the id from all but one line, then run {}", k_init_ids_command);
      findings.push_back(std::move(finding));
    }
  }
  for (const ParsedFile& parsed : files) {
    findings.insert(findings.end(), parsed.findings.begin(), parsed.findings.end());
  }
  return findings;
}

std::string missing_ids_refusal(const IdGate& gate) {
  std::string out =
      fmt::format("Cannot run maintain: {} entries are missing IDs.\n", gate.missing_count());
  out += fmt::format("Run {} first to tag all entries.\n", k_init_ids_command);
  if (const int restored = gate.doctor_restores(); restored > 0) {
    out += fmt::format(
        "Before that, run {}: {} of them already {} an id, in the older spelling or on "
        "another line, that init-ids would not keep.\n",
        k_doctor_fix_command, restored, restored == 1 ? "has" : "have");
  }
  // init-ids cannot repair these, so the user has to be told where they are.
  for (const EntryLocation& location : gate.malformed) {
    out +=
        fmt::format("  malformed: {} line {}{}\n", location.display_path, location.line,
                    location.older_spelling
                        ? fmt::format(" (the older spelling; {} respells it)", k_doctor_fix_command)
                        : std::string{});
  }
  return out;
}

std::string duplicate_ids_refusal(const IdGate& gate) {
  std::string out = "Cannot run maintain: duplicate ID found.\n";
  for (const DuplicateId& duplicate : gate.duplicates) {
    out += fmt::format("ID: ^{}\n", duplicate.id);
    for (std::size_t i = 0; i < duplicate.locations.size(); ++i) {
      out += fmt::format("  {}. {} line {}\n", i + 1, duplicate.locations[i].display_path,
                         duplicate.locations[i].line);
    }
  }
  out += "Resolve manually before running maintain.\n";
  return out;
}

std::optional<std::string> maintain_refusal(const IdGate& gate) {
  if (gate.missing_count() > 0) {
    return missing_ids_refusal(gate);
  }
  if (!gate.duplicates.empty()) {
    return duplicate_ids_refusal(gate);
  }
  return std::nullopt;
}

}  // namespace gv::recall
