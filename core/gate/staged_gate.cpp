#include "core/gate/staged_gate.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/gate/baseline.hpp"
#include "core/gate/delta_gate.hpp"
#include "core/gate/input.hpp"
#include "core/gate/vault_checks.hpp"
#include "core/git/index_file.hpp"
#include "core/git/index_tree.hpp"
#include "core/recall/metadata.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/trace.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/vault.hpp"

namespace gv {
namespace {

using Entry = git::IndexFile::Entry;

// The files the working-memory checks read (core/recall/files.cpp): CLAUDE.local.md, what is
// under memory/registers/ and memory/archive/, the recall metadata, and the distill log.
bool is_working_memory_path(std::string_view path) {
  return path == "CLAUDE.local.md" || path.starts_with("memory/registers/") ||
         path.starts_with("memory/archive/") || path == recall::k_metadata_path ||
         path == vault_path::k_distill_log;
}

std::string working_state(const git::IndexFile& index) {
  VaultStateDigest digest;
  for (const std::string_view prefix :
       {std::string_view("CLAUDE.local.md"), std::string_view("memory/archive/"),
        std::string_view("memory/registers/"), recall::k_metadata_path,
        vault_path::k_distill_log}) {
    for (const Entry& entry : index.with_prefix(prefix)) {
      if (entry.is_committed_file() && is_working_memory_path(entry.path())) {
        digest.add(entry.path(), entry.oid_hex());
      }
    }
  }
  return digest.hex();
}

bool any_vault_file(const std::vector<const Entry*>& entries) {
  return std::any_of(entries.begin(), entries.end(), [](const Entry* entry) {
    const std::string_view path = entry->path();
    return is_memory_path(path) || path == k_index_json_path || path == k_index_md_path ||
           path == k_memories_readme_path;
  });
}

}  // namespace

std::optional<std::vector<Finding>> run_staged_gate(std::span<const GateCheck> checks,
                                                    GateInput& input, const GateOptions& options) {
  if (!options.baseline_file || !options.checks.empty()) {
    return std::nullopt;
  }
  std::shared_ptr<const git::IndexFile> index;
  {
    const util::TracedRegion traced("gate: reading the index");
    index = input.snapshot().index_file();
  }
  if (!index) {
    return std::nullopt;
  }
  GateRunInfo ignored;
  GateRunInfo& info = options.info != nullptr ? *options.info : ignored;
  const std::uint64_t key = check_set_key(checks);
  std::optional<GateBaseline> baseline;
  {
    const util::TracedRegion traced("gate: loading the baseline");
    baseline = GateBaseline::load(*options.baseline_file, key);
  }

  // Working memory: every check runs (skipping happens on the way out), so the findings kept
  // are complete for the files' state.
  const std::string working = working_state(*index);
  const bool working_known = baseline && baseline->working_state() == working;
  std::vector<Finding> findings = working_known
                                      ? baseline->working_findings()
                                      : run_checks(checks, GateScope::working_memory, input, {});

  const std::vector<const Entry*> entries = committed_vault_entries(*index);
  if (!any_vault_file(entries)) {
    return findings;
  }
  // The whole `.memory/` range, stages and all, as the index holds it (not for version 4,
  // whose entries depend on the ones before them): compared below, and saved as the baseline.
  const std::span<const Entry> range = index->with_prefix(vault_path::k_root);
  const std::optional<std::string_view> bytes = index->entry_bytes(range);

  // The digests follow from the baseline's and the entries that differ from it, found by a
  // comparison of bytes; only without a baseline whose entries read is every entry hashed.
  std::optional<IndexDigests> digests;
  if (baseline) {
    const util::TracedRegion traced(
        fmt::format("gate: comparing {} entries with the baseline", entries.size()));
    // git's own layout: the `.memory/` entries back to back, none unmerged or an intent to add.
    const std::string_view back_to_back = range.size() == entries.size() ? bytes.value_or("") : "";
    if (const std::vector<GateBaseline::Difference>* differences =
            baseline->differences(entries, index->version(), back_to_back)) {
      digests = digests_after(*baseline, *differences);
    }
  }
  if (!digests) {
    const util::TracedRegion traced(fmt::format("gate: digests of {} entries", entries.size()));
    digests = index_digests(entries);
  }
  const std::string state = fmt::format("{}-{:016x}", digests->state, key);
  const bool vault_known = baseline && baseline->state() == state;
  std::optional<VaultCheckResult> vault;
  if (vault_known) {
    info.answered = VaultAnswer::baseline;
    vault.emplace();
    vault->findings = baseline->findings();
  } else if (baseline) {
    const util::TracedRegion traced("gate: checking what changed since the baseline");
    vault = delta_vault_check(*baseline, entries, index->version(), digests->generated_inputs,
                              input.snapshot(), options.generated);
    if (vault) {
      info.answered = VaultAnswer::delta;
      info.changed_since_baseline = vault->changed;
    }
  }
  if (vault && !baseline->memory_tree().empty()) {
    info.baseline_tree = baseline->memory_tree();
  }
  if (!vault) {
    const util::TracedRegion traced(fmt::format("gate: checking {} entries", entries.size()));
    vault = full_check_result(input, run_checks(checks, GateScope::vault, input, {}));
    info.answered = VaultAnswer::full;
  }
  const std::vector<Finding> working_findings = findings;
  findings.insert(findings.end(), vault->findings.begin(), vault->findings.end());
  if (vault_known && working_known) {
    return findings;  // nothing changed: the baseline stays as it is
  }

  if (!bytes) {
    return findings;
  }
  GateBaseline::Contents contents;
  contents.check_set_key = key;
  contents.state = state;
  contents.vault_digest = digests->state;
  contents.generated_inputs = digests->generated_inputs;
  contents.index_version = index->version();
  contents.entry_bytes = *bytes;
  if (vault_known) {
    contents.not_active = baseline->not_active();
    contents.dangling = baseline->dangling();
  } else {
    contents.not_active = std::move(vault->not_active);
    contents.dangling = std::move(vault->dangling);
  }
  contents.findings = std::move(vault->findings);
  // The tree a commit of this state records: from the cache-tree git brought up to date before
  // running the hook, else hashed, and then only when warnings make it worth knowing
  // (core/hooks/commit_gate.cpp filters them by which files a commit changes).
  if (std::optional<std::string> cached = index->cached_tree_id(".memory")) {
    contents.memory_tree = std::move(*cached);
  } else if (std::any_of(
                 contents.findings.begin(), contents.findings.end(),
                 [](const Finding& finding) { return finding.severity == Severity::warning; })) {
    contents.memory_tree = git::index_tree_id(range, ".memory").value_or("");
  }
  contents.working_state = working;
  contents.working_findings = working_findings;
  // Checked against the loaded baseline: only what changed since goes into its journal.
  if (vault_known) {
    contents.previous = &*baseline;
  } else if (info.answered == VaultAnswer::delta) {
    contents.previous = &*baseline;
    for (const std::string& path : vault->changed) {
      GateBaseline::Change& change = contents.changes.emplace_back();
      change.path = path;
      if (const Entry* staged = find_vault_entry(entries, path)) {
        change.entry_bytes = index->entry_bytes(std::span<const Entry>(staged, 1)).value_or("");
      }
    }
  }
  const util::TracedRegion traced("gate: saving the baseline");
  (void)GateBaseline::save(*options.baseline_file, contents);
  return findings;
}

}  // namespace gv
