#include "core/recall/summary.hpp"

#include <fmt/format.h>

#include "core/recall/gate.hpp"
#include "core/recall/maintain.hpp"
#include "core/util/text.hpp"

namespace gv::recall {

WorkingSummary summarize(const std::vector<ParsedFile>& files) {
  WorkingSummary summary;
  summary.files = files.size();
  for (const ParsedFile& parsed : files) {
    for (const Entry& entry : parsed.entries) {
      ++summary.entries;
      switch (parsed.file.tier) {
        case Tier::working:
          ++summary.working_entries;
          break;
        case Tier::register_:
          ++summary.register_entries;
          break;
        case Tier::archive:
          ++summary.archive_entries;
          break;
      }
      summary.untagged += entry.state == EntryState::untagged ? 1 : 0;
      summary.malformed += entry.state == EntryState::malformed ? 1 : 0;
      if (parsed.file.tier == Tier::working && entry.state == EntryState::tagged) {
        summary.working_words += count_words(entry.text);
      }
    }
  }
  return summary;
}

std::string render_markdown(const WorkingSummary& summary, int budget) {
  if (summary.files == 0) {
    return {};
  }
  std::string out = fmt::format(
      "\n---\n\n### Working Memory\n\n"
      "| Tier | Entries |\n|------|---------|\n"
      "| working (CLAUDE.local.md) | {} |\n| registers | {} |\n| archive | {} |\n\n",
      summary.working_entries, summary.register_entries, summary.archive_entries);
  out += fmt::format("**Entries**: {} in {}\n", summary.entries,
                     util::plural(summary.files, "file", "files"));
  out += fmt::format("**Working tier**: {} of a {}-word budget{}\n",
                     util::plural(static_cast<std::size_t>(summary.working_words), "word", "words"),
                     budget, summary.working_words > budget ? " (over it)" : "");
  const std::size_t without = summary.untagged + summary.malformed;
  if (without > 0) {
    out += fmt::format(
        "**Without a valid id**: {} (`{}` tags them; the gate blocks a commit "
        "until then)\n",
        util::plural(without, "entry", "entries"), k_init_ids_command);
  }
  out += "\n`git vault recall maintain --dry-run` shows what maintenance would move or archive.\n";
  return out;
}

}  // namespace gv::recall
