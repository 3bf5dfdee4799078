#include "core/gate/baseline.hpp"

#include <algorithm>
#include <utility>

#include "core/util/file.hpp"
#include "core/util/mapped_file.hpp"
#include "core/vault/cache_codec.hpp"

namespace gv {
namespace {

using cache_codec::Reader;
using cache_codec::Writer;

// Layout: "GVGB", format (u32 LE), check-set key (u64 LE), size of the rest (u64 LE), checksum
// of the rest (u64 LE); the rest: the state digest, the index version, the entry count and the
// entry bytes (a string), the statuses, the dangling targets, the findings, the `.memory` tree
// id, the working-memory digest and findings.
constexpr std::string_view k_magic = "GVGB";
constexpr std::size_t k_header_size = 4 + 4 + 8 + 8 + 8;

}  // namespace

struct GateBaseline::Mapping {
  util::MappedFile file;
};

GateBaseline::GateBaseline() = default;
GateBaseline::GateBaseline(GateBaseline&&) noexcept = default;
GateBaseline& GateBaseline::operator=(GateBaseline&&) noexcept = default;
GateBaseline::~GateBaseline() = default;

std::optional<GateBaseline> GateBaseline::load(const std::filesystem::path& file,
                                               std::uint64_t check_set_key) {
  std::optional<util::MappedFile> mapped =
      util::MappedFile::open(file, util::MappedFile::Pages::populate);
  if (!mapped) {
    return std::nullopt;
  }
  const std::string_view bytes = mapped->view();
  if (bytes.size() < k_header_size || bytes.substr(0, 4) != k_magic ||
      cache_codec::get_fixed(bytes, 4, 4) != k_format ||
      cache_codec::get_fixed(bytes, 8, 8) != check_set_key) {
    return std::nullopt;
  }
  const std::uint64_t size = cache_codec::get_fixed(bytes, 16, 8);
  if (size != bytes.size() - k_header_size ||
      cache_codec::get_fixed(bytes, 24, 8) != cache_codec::checksum(bytes.substr(k_header_size))) {
    return std::nullopt;
  }
  GateBaseline baseline;
  baseline.m_mapping = std::make_unique<Mapping>(Mapping{std::move(*mapped)});
  const std::string_view rest = baseline.m_mapping->file.view();
  Reader in(rest, k_header_size, rest.size());
  baseline.m_state = in.str();
  baseline.m_index_version = static_cast<std::uint32_t>(in.u());
  baseline.m_entry_count = static_cast<std::uint32_t>(in.u());
  baseline.m_entry_bytes = in.view();
  const std::uint64_t statuses = in.u();
  for (std::uint64_t n = 0; n < statuses && !in.failed(); ++n) {
    Status status;
    status.path = in.str();
    const std::uint64_t value = in.u();
    status.status = value == 1 ? MemoryStatus::tombstoned : MemoryStatus::unreadable;
    baseline.m_not_active.push_back(std::move(status));
  }
  const std::uint64_t dangling = in.u();
  for (std::uint64_t n = 0; n < dangling && !in.failed(); ++n) {
    DanglingTarget target;
    target.source = in.str();
    target.stem = in.str();
    baseline.m_dangling.push_back(std::move(target));
  }
  baseline.m_findings = cache_codec::read_findings(in);
  baseline.m_memory_tree = in.str();
  baseline.m_working_state = in.str();
  baseline.m_working_findings = cache_codec::read_findings(in);
  if (in.failed() || in.at() != rest.size()) {
    return std::nullopt;
  }
  if (!std::is_sorted(baseline.m_not_active.begin(), baseline.m_not_active.end(),
                      [](const Status& a, const Status& b) { return a.path < b.path; })) {
    return std::nullopt;
  }
  return baseline;
}

bool GateBaseline::save(const std::filesystem::path& file, const Contents& contents) {
  // The entries are the bulk of the file and are written straight from the index's bytes;
  // what is encoded here is small.
  std::string before_entries;
  Writer head(before_entries);
  head.str(contents.state);
  head.u(contents.index_version);
  head.u(contents.entry_count);
  head.u(contents.entry_bytes.size());
  std::string after_entries;
  Writer tail(after_entries);
  tail.u(contents.not_active.size());
  for (const Status& status : contents.not_active) {
    tail.str(status.path);
    tail.u(status.status == MemoryStatus::tombstoned ? 1 : 2);
  }
  tail.u(contents.dangling.size());
  for (const DanglingTarget& target : contents.dangling) {
    tail.str(target.source);
    tail.str(target.stem);
  }
  cache_codec::write_findings(tail, contents.findings);
  tail.str(contents.memory_tree);
  tail.str(contents.working_state);
  cache_codec::write_findings(tail, contents.working_findings);

  const std::uint64_t sum =
      cache_codec::checksum_pieces({before_entries, contents.entry_bytes, after_entries});
  std::string header(k_magic);
  cache_codec::put_fixed(header, k_format, 4);
  cache_codec::put_fixed(header, contents.check_set_key, 8);
  cache_codec::put_fixed(
      header, before_entries.size() + contents.entry_bytes.size() + after_entries.size(), 8);
  cache_codec::put_fixed(header, sum, 8);
  const std::string_view pieces[] = {header, before_entries, contents.entry_bytes, after_entries};
  return util::write_cache_file(file, pieces);
}

const git::IndexFile* GateBaseline::entries() const {
  if (!m_entries) {
    m_entries = git::IndexFile::view_entries(m_entry_bytes, m_index_version, m_entry_count);
  }
  return *m_entries ? &**m_entries : nullptr;
}

MemoryStatus GateBaseline::status(std::string_view path) const {
  const auto it = std::lower_bound(
      m_not_active.begin(), m_not_active.end(), path,
      [](const Status& status, std::string_view key) { return status.path < key; });
  return it != m_not_active.end() && it->path == path ? it->status : MemoryStatus::active;
}

std::filesystem::path gate_baseline_path(const std::filesystem::path& common_dir) {
  return common_dir / "git-vault" / "gate-baseline";
}

}  // namespace gv
