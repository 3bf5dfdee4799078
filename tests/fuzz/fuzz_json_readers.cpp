// libFuzzer target: every JSON file git-vault reads. The first byte picks the reader, the rest
// is the file: memory-index.json, distill-log.json, recall metadata.json, specs/state.json.
// A reader may reject the file only with gv::Error (a message naming the file); any other
// exception (a raw nlohmann message) or a crash is a finding, and so is the index or metadata
// reader's fast path disagreeing with the full one.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/distill/log.hpp"
#include "core/distill/memory_health.hpp"
#include "core/error.hpp"
#include "core/recall/metadata.hpp"
#include "core/recall/metadata_scan.hpp"
#include "core/vault/index_reader.hpp"
#include "core/vault/index_scan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 4) {
      case 0: {
        const gv::IndexReadResult read = gv::read_index(".memory/memory-index.json", text);
        if (!read.index && read.findings.empty()) {
          __builtin_trap();  // a rejected file always says why
        }
        // Where the fast path answers, the full reader agrees and finds nothing to report.
        if (const auto fast = gv::scan_clean_index(text)) {
          const gv::IndexReadResult full = gv::read_index_fully(".memory/memory-index.json", text);
          if (!full.index || !full.findings.empty() ||
              full.index->entries.size() != fast->entries.size()) {
            __builtin_trap();
          }
          for (std::size_t i = 0; i < fast->entries.size(); ++i) {
            const gv::IndexEntryRecord& a = fast->entries[i];
            const gv::IndexEntryRecord& b = full.index->entries[i];
            if (a.id != b.id || a.retrieval_count != b.retrieval_count ||
                a.last_retrieved != b.last_retrieved || a.tombstoned_at != b.tombstoned_at) {
              __builtin_trap();
            }
          }
        }
        break;
      }
      case 1: {
        // No sub-mode rows: the counters only fill a missing summary, and the reader stays
        // free of every sub-mode's code.
        const gv::distill::SubModeRegistry no_sub_modes({});
        gv::distill::DistillLog log =
            gv::distill::DistillLog::parse(".memory/distill-log.json", text, no_sub_modes);
        (void)log.operations();
        (void)log.serialize();
        break;
      }
      case 2: {
        const gv::recall::MetadataRead read =
            gv::recall::parse_metadata(text, "memory/.recall/metadata.json");
        // Where the fast path answers, the general reader reads the same records and warnings.
        if (gv::recall::scan_flat_metadata(text)) {
          const gv::recall::MetadataRead full =
              gv::recall::parse_metadata_fully(text, "memory/.recall/metadata.json");
          if (gv::recall::serialize_metadata(read.records) !=
                  gv::recall::serialize_metadata(full.records) ||
              read.findings.size() != full.findings.size()) {
            __builtin_trap();
          }
          for (std::size_t i = 0; i < read.findings.size(); ++i) {
            if (read.findings[i].message != full.findings[i].message ||
                read.findings[i].line != full.findings[i].line ||
                read.findings[i].id != full.findings[i].id) {
              __builtin_trap();
            }
          }
        }
        break;
      }
      default: {
        gv::distill::HealthRefresh refresh;
        (void)gv::distill::refresh_memory_health(text, refresh);
        break;
      }
    }
  } catch (const gv::Error&) {
    // rejected with a message: fine
  }
  return 0;
}
