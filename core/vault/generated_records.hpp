#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/snapshot_entry.hpp"
#include "core/util/digest.hpp"

namespace gv {

// What one regeneration produced: the blob ids of the three generated index files, for the
// vault files they were generated from. Every regeneration (`git vault index`, each action,
// the post-merge reindex) records one; the gate and `index --check` then know the generated
// files of a listing are current from blob ids alone, without parsing a memory or rendering and
// hashing megabytes of index. A listing no record covers is checked the full way.
struct GeneratedRecord {
  std::string inputs;  // generated_inputs_digest() of the listing
  std::string index_json;
  std::string index_md;
  std::string memories_readme;

  friend bool operator==(const GeneratedRecord&, const GeneratedRecord&) = default;
};

// A digest of the memory files of a listing of `.memory/` (sorted by path), by path and blob id:
// all a regeneration renders from (load_vault reads nothing else), so notes, templates and the
// distill log may change without making a record obsolete.
[[nodiscard]] std::string generated_inputs_digest(const std::vector<SnapshotEntry>& vault_entries);

// The same digest fed one entry at a time, in any order; other files are skipped. Like
// VaultStateDigest it follows a change by taking out the entries it replaced.
class GeneratedInputsDigest {
 public:
  void add(std::string_view path, std::string_view oid);
  void remove(std::string_view path, std::string_view oid);
  [[nodiscard]] std::string hex() const { return m_digest.hex(); }
  [[nodiscard]] static std::optional<GeneratedInputsDigest> from_hex(std::string_view hex);

 private:
  util::SetDigest128 m_digest;
};

// The record of a listing whose generated files were just regenerated from it; nullopt when
// one of the three is absent.
[[nodiscard]] std::optional<GeneratedRecord> generated_record_of(
    const std::vector<SnapshotEntry>& vault_entries);

// The last regenerations, newest first, kept in `<common git dir>/git-vault/generated`. The
// file names the version of git-vault that wrote it: another version may render differently,
// so its records are not trusted. Like the parse cache it is an optimisation only: an
// unreadable file reads as empty and a failed save is silent.
class GeneratedRecords {
 public:
  // Bumped whenever the rendered bytes of the generated files change for the same memories
  // (core/vault/index_files.cpp), so records of the old rendering are not trusted, and when the
  // inputs digest changes its definition (2: a sum over the memories, in any order).
  static constexpr int k_format = 2;
  static constexpr std::size_t k_kept = 64;

  [[nodiscard]] static GeneratedRecords load(const std::filesystem::path& file);
  [[nodiscard]] static GeneratedRecords parse(std::string_view text);
  [[nodiscard]] std::string to_text() const;
  bool save(const std::filesystem::path& file) const;

  [[nodiscard]] const GeneratedRecord* find(std::string_view inputs) const;
  // Adds `record` as the newest, replacing one with the same inputs.
  void add(GeneratedRecord record);
  // True when the listing's three generated files are what a recorded regeneration of its
  // inputs produced.
  [[nodiscard]] bool current(const std::vector<SnapshotEntry>& vault_entries) const;
  // The same, from the inputs digest and the generated files' blob ids of a listing.
  [[nodiscard]] bool current(const GeneratedRecord& listed) const;

  // True when a recorded regeneration wrote the blob `oid` as the generated file at `path` (one
  // of the three): bytes git-vault rendered, not a person's edit.
  [[nodiscard]] bool wrote(std::string_view path, std::string_view oid) const;

  [[nodiscard]] std::size_t size() const { return m_records.size(); }

 private:
  std::vector<GeneratedRecord> m_records;  // newest first
};

// `<common git dir>/git-vault/generated`.
[[nodiscard]] std::filesystem::path generated_records_path(const std::filesystem::path& common_dir);

// Adds `record` to the repository's file (load, add, save). Failing to save is silent.
void remember_generated(const std::filesystem::path& common_dir, const GeneratedRecord& record);

}  // namespace gv
