#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/digest.hpp"
#include "core/vault/index_row.hpp"
#include "core/vault/vault.hpp"

namespace gv {

// What the vault checks (core/gate/checks/) compute, and the digest their findings are
// remembered under.

// A digest of every path and blob id under `.memory/`: equal digests mean the vault part of the
// gate gives equal findings, so they can be remembered per digest.
[[nodiscard]] std::string vault_state_digest(const std::vector<SnapshotEntry>& vault_entries);

// The same digest fed one entry at a time, in any order, and followed through a change by
// taking out the entries it replaced.
class VaultStateDigest {
 public:
  VaultStateDigest() = default;
  void add(std::string_view path, std::string_view oid) { m_digest.add(path, oid); }
  void remove(std::string_view path, std::string_view oid) { m_digest.remove(path, oid); }
  [[nodiscard]] std::string hex() const { return m_digest.hex(); }
  // The digest hex() gave, to be changed further; nullopt for text it does not give.
  [[nodiscard]] static std::optional<VaultStateDigest> from_hex(std::string_view hex) {
    std::optional<util::SetDigest128> digest = util::SetDigest128::from_hex(hex);
    return digest ? std::optional<VaultStateDigest>(VaultStateDigest(*digest)) : std::nullopt;
  }

 private:
  explicit VaultStateDigest(util::SetDigest128 digest) : m_digest(digest) {}

  util::SetDigest128 m_digest;
};

// The fix a schema finding without one of its own gets.
void default_schema_fix(Finding& finding);

// Memory files whose ids differ only in ASCII case: they are one file on macOS and Windows.
// One `id-case-collision` error per file after the first of each group (paths in byte order).
[[nodiscard]] std::vector<Finding> case_collision_findings(
    const std::vector<SnapshotEntry>& vault_entries);
// The same over the paths of such a listing.
[[nodiscard]] std::vector<Finding> case_collision_findings(
    const std::vector<std::string_view>& vault_paths);

// `[[target]]` links in active memories that name no memory (or a tombstoned one): warnings
// (`dangling-link`). A target names a memory when, with any folders and a trailing `.md`
// removed, it equals a memory id; a target that names another file under `.memory/` (an index,
// a template) is not a memory link and is left alone. Each finding's line is the one the parse
// recorded (the file is read only for a row without them). With `stems`, the target stem of
// each finding is appended to it, in the findings' order.
[[nodiscard]] std::vector<Finding> dangling_link_findings(
    const Snapshot& snapshot, const std::vector<IndexRow>& rows,
    const std::vector<SnapshotEntry>& vault_entries, std::vector<std::string>* stems = nullptr);

// What a link target (its stem: folders and a trailing `.md` removed) names in a vault state.
enum class LinkTarget { none, active, tombstoned, note };
using LinkResolver = std::function<LinkTarget(std::string_view stem)>;
// The stem dangling_link_findings compares with memory ids.
[[nodiscard]] std::string_view link_target_stem(std::string_view target);
// dangling_link_findings for one source memory, its targets resolved by `resolve`: appends its
// findings (and their stems) in the order of its links. Nothing for a tombstoned source.
void dangling_links_of(const IndexRow& source, const LinkResolver& resolve,
                       const Snapshot& snapshot, std::vector<Finding>& findings,
                       std::vector<std::string>* stems = nullptr);

// Validate-on-read of the three generated files against `rows` (every memory, tombstoned too,
// sorted by id). The fresh memory-index.json carries the committed file's own `generated_at`,
// so an up-to-date index compares equal byte for byte and is never parsed as JSON. With
// `entry_texts` (each row's rendered entry, remembered in the parse cache) it is assembled
// from them (core/gate/index_json.hpp); `render_json` renders the whole file the slow way and
// is called only without entry texts, or when the assembly differs from the committed file, to
// explain the difference. With entry texts, the files are first compared by blob id with the
// ids `vault_entries` (the snapshot's listing of `.memory/`) gives them, which spares reading
// megabytes of committed index when it is up to date.
[[nodiscard]] std::vector<Finding> stale_index_findings(
    const Snapshot& snapshot, const std::vector<IndexRow>& rows,
    const std::vector<std::string_view>* entry_texts,
    const std::vector<SnapshotEntry>& vault_entries,
    const std::function<std::string(std::string_view generated_at)>& render_json);

}  // namespace gv
