#include "core/setup/scaffold.hpp"

#include "core/dates.hpp"
#include "core/distill/log.hpp"
#include "core/vault/index_files.hpp"

namespace gv {
namespace {

std::string folder_readme(std::string_view title, std::string_view purpose) {
  return std::string{"# "} + std::string{title} + "\n\n" + std::string{purpose} +
         "\n\n## Navigation\n\n- [← Parent Directory](../README.md)\n";
}

}  // namespace

std::vector<ScaffoldFile> vault_scaffold() {
  // An empty vault renders the same on every day, so the date passed here never shows.
  const IndexFiles empty = render_index_files({}, Date{});
  return {
      {".memory/README.md",
       "# Memory Vault\n\nMemories of this project, one file per memory in `10-Memories/`.\n"
       "Maintained with `git vault` (health report: `git vault distill`).\n\n"
       "- [Inbox](00-Inbox/README.md) - quick capture\n"
       "- [Memories](10-Memories/README.md) - all memories\n"
       "- [Indices](20-Indices/index.md) - generated index\n"
       "- [Templates](30-Templates/README.md) - templates for new memories\n"},
      {".memory/00-Inbox/README.md",
       folder_readme("Inbox", "Incoming memory items awaiting organization.")},
      {".memory/20-Indices/README.md",
       folder_readme("Indices", "Generated indexes; `git vault index` rewrites index.md.")},
      {".memory/30-Templates/README.md",
       folder_readme("Templates", "Templates for new memory entries.")},
      {".memory/30-Templates/memory-template.md",
       "---\ntitle: \"{{title}}\"\ncreated: {{date}}\ntags: {{tags}}\ntopic: \"{{topic}}\"\n"
       "source: \"{{source}}\"\nmodified: {{last_updated}}\nretrieval_count: 0\n"
       "last_retrieved: null\nkeywords: []\nsummary: \"\"\ntoken_count: 0\n---\n\n# {{title}}\n\n"
       "{{content}}\n\n## Connections\n"
       "<!-- Add links to related memories using [[filename]] syntax -->\n"},
      {std::string{k_index_json_path}, empty.index_json},
      {std::string{k_index_md_path}, empty.index_md},
      {std::string{k_memories_readme_path}, empty.memories_readme},
      {std::string{distill::k_log_path}, distill::DistillLog{}.serialize()},
  };
}

std::vector<ScaffoldFile> recall_scaffold() {
  auto reg = [](std::string_view name, std::string_view title, std::string_view blurb) {
    return ScaffoldFile{std::string{"memory/registers/"} + std::string{name},
                        std::string{"# "} + std::string{title} + "\n> " + std::string{blurb} +
                            "\n\n<!--\n- **claim**: ...\n- **confidence**: high | medium | low\n"
                            "- **evidence**: ...\n- **last_verified**: YYYY-MM-DD\n-->\n"};
  };
  return {
      {"CLAUDE.local.md",
       "# Working Memory\n"
       "> This is your working memory. Auto-loaded every session via CLAUDE.local.md.\n"
       "> ~1500 word limit. Only behavior-changing facts earn a place here.\n"
       "> Last updated: YYYY-MM-DD\n\n"
       "## Active Context\n\n**Current Focus**: [not yet set]\n**Key Deadline**: [none]\n"
       "**Blockers**: [none]\n\n"
       "## Project State\n\n[No projects tracked yet.]\n\n"
       "## Critical Preferences\n\n- [None captured yet]\n\n"
       "## Key Decisions in Effect\n\n- [None captured yet]\n\n"
       "## People Context\n\n- [None captured yet]\n\n"
       "## Open Loops\n\n- [None yet]\n\n"
       "## Session Continuity\n\n[Fresh install — no prior sessions.]\n\n---\n"
       "*For detailed history, see memory/registers/*\n*For daily logs, see memory/daily/*\n"},
      {"memory/registers/_index.md",
       "# Registers\n\n| Register | Load When | Contains |\n|---|---|---|\n"
       "| decisions.md | choosing between options | decisions in effect |\n"
       "| preferences.md | writing or reviewing code | how the user likes things done |\n"
       "| people.md | someone is mentioned | who is who |\n"
       "| projects.md | switching project | project state |\n"
       "| tech-stack.md | touching the build | tools and versions |\n"
       "| open-loops.md | planning | unfinished business |\n"},
      reg("decisions.md", "Decisions", "Decisions in effect, with the reason for each."),
      reg("preferences.md", "Preferences", "How the user likes things done."),
      reg("people.md", "People", "Who is who."),
      reg("projects.md", "Projects", "State of each project."),
      reg("tech-stack.md", "Tech Stack", "Tools, versions and why."),
      {"memory/registers/open-loops.md",
       "# Open Loops\n> Unfinished business.\n\n## Active\n\n"
       "<!-- - [ ] [Item description] — created YYYY-MM-DD, due YYYY-MM-DD -->\n\n"
       "## Recently Closed\n\n<!-- - [x] [Item description] — closed YYYY-MM-DD -->\n"},
      {"memory/archive/ARCHIVE.md",
       "# Archive\n> Archived memory entries. Searchable but never auto-loaded.\n\n"},
      {"memory/daily/.gitkeep", ""},
      {"memory/.recall/metadata.json", "{}\n"},
  };
}

}  // namespace gv
