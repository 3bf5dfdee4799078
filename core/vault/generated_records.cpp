#include "core/vault/generated_records.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/snapshot_entry.hpp"
#include "core/util/digest.hpp"
#include "core/util/file.hpp"
#include "core/util/mapped_file.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/vault.hpp"
#include "core/version.hpp"

namespace gv {
namespace {

// The first line names the format and the writing version; then one record a line, newest
// first: inputs digest, then the blob ids of memory-index.json, index.md and README.md.
std::string header_line() {
  return fmt::format("git-vault generated-records {} {}", GeneratedRecords::k_format, version());
}

bool is_hex(std::string_view text, std::size_t size) {
  return text.size() == size && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

}  // namespace

void GeneratedInputsDigest::add(std::string_view path, std::string_view oid) {
  if (is_memory_path(path)) {
    m_digest.add(path, oid);
  }
}

void GeneratedInputsDigest::remove(std::string_view path, std::string_view oid) {
  if (is_memory_path(path)) {
    m_digest.remove(path, oid);
  }
}

std::optional<GeneratedInputsDigest> GeneratedInputsDigest::from_hex(std::string_view hex) {
  std::optional<util::SetDigest128> digest = util::SetDigest128::from_hex(hex);
  if (!digest) {
    return std::nullopt;
  }
  GeneratedInputsDigest out;
  out.m_digest = *digest;
  return out;
}

std::string generated_inputs_digest(const std::vector<SnapshotEntry>& vault_entries) {
  GeneratedInputsDigest digest;
  for (const SnapshotEntry& entry : vault_entries) {
    digest.add(entry.path, entry.oid);
  }
  return digest.hex();
}

std::optional<GeneratedRecord> generated_record_of(
    const std::vector<SnapshotEntry>& vault_entries) {
  const std::string* json = listed_oid(vault_entries, k_index_json_path);
  const std::string* md = listed_oid(vault_entries, k_index_md_path);
  const std::string* readme = listed_oid(vault_entries, k_memories_readme_path);
  if (json == nullptr || md == nullptr || readme == nullptr) {
    return std::nullopt;
  }
  return GeneratedRecord{generated_inputs_digest(vault_entries), *json, *md, *readme};
}

GeneratedRecords GeneratedRecords::load(const std::filesystem::path& file) {
  const std::optional<util::MappedFile> mapped = util::MappedFile::open(file);
  return mapped ? parse(mapped->view()) : GeneratedRecords{};
}

GeneratedRecords GeneratedRecords::parse(std::string_view text) {
  GeneratedRecords out;
  const std::size_t first_end = text.find('\n');
  if (first_end == std::string_view::npos || text.substr(0, first_end) != header_line()) {
    return out;  // absent, damaged, or written by another version
  }
  text.remove_prefix(first_end + 1);
  while (!text.empty() && out.m_records.size() < k_kept) {
    const std::size_t end = text.find('\n');
    if (end == std::string_view::npos) {
      break;  // a torn last line
    }
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end + 1);
    std::string_view fields[4];
    std::string_view rest = line;
    bool ok = true;
    for (std::string_view& field : fields) {
      const std::size_t space = rest.find(' ');
      field = rest.substr(0, space);
      rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    }
    ok = rest.empty() && is_hex(fields[0], 32) && is_hex(fields[1], 40) && is_hex(fields[2], 40) &&
         is_hex(fields[3], 40);
    if (!ok) {
      return GeneratedRecords{};  // not a file this version wrote: trust none of it
    }
    out.m_records.push_back({std::string(fields[0]), std::string(fields[1]), std::string(fields[2]),
                             std::string(fields[3])});
  }
  return out;
}

std::string GeneratedRecords::to_text() const {
  std::string out = header_line() + "\n";
  for (const GeneratedRecord& record : m_records) {
    out += fmt::format("{} {} {} {}\n", record.inputs, record.index_json, record.index_md,
                       record.memories_readme);
  }
  return out;
}

bool GeneratedRecords::save(const std::filesystem::path& file) const {
  return util::write_cache_file(file, to_text());
}

const GeneratedRecord* GeneratedRecords::find(std::string_view inputs) const {
  const auto it =
      std::find_if(m_records.begin(), m_records.end(),
                   [&](const GeneratedRecord& record) { return record.inputs == inputs; });
  return it != m_records.end() ? &*it : nullptr;
}

void GeneratedRecords::add(GeneratedRecord record) {
  std::erase_if(m_records, [&](const GeneratedRecord& old) { return old.inputs == record.inputs; });
  m_records.insert(m_records.begin(), std::move(record));
  if (m_records.size() > k_kept) {
    m_records.resize(k_kept);
  }
}

bool GeneratedRecords::current(const std::vector<SnapshotEntry>& vault_entries) const {
  if (m_records.empty()) {
    return false;
  }
  const std::optional<GeneratedRecord> listed = generated_record_of(vault_entries);
  return listed && current(*listed);
}

bool GeneratedRecords::wrote(std::string_view path, std::string_view oid) const {
  return std::any_of(m_records.begin(), m_records.end(), [&](const GeneratedRecord& record) {
    return (path == k_index_json_path && record.index_json == oid) ||
           (path == k_index_md_path && record.index_md == oid) ||
           (path == k_memories_readme_path && record.memories_readme == oid);
  });
}

bool GeneratedRecords::current(const GeneratedRecord& listed) const {
  const GeneratedRecord* known = find(listed.inputs);
  return known != nullptr && *known == listed;
}

std::filesystem::path generated_records_path(const std::filesystem::path& common_dir) {
  return common_dir / "git-vault" / "generated";
}

void remember_generated(const std::filesystem::path& common_dir, const GeneratedRecord& record) {
  const std::filesystem::path file = generated_records_path(common_dir);
  GeneratedRecords records = GeneratedRecords::load(file);
  if (const GeneratedRecord* known = records.find(record.inputs);
      known != nullptr && *known == record && records.size() > 0) {
    return;  // already the record it would add; nothing to write
  }
  records.add(record);
  (void)records.save(file);
}

}  // namespace gv
