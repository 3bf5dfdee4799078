#pragma once

#include "core/dates.hpp"
#include "core/plan.hpp"
#include "core/recall/ids.hpp"
#include "core/recall/maintain.hpp"
#include "core/recall/metadata.hpp"

namespace gv::recall {

// What `recall init-ids` writes: every rewritten file, plus metadata.json (serialized from
// `metadata`) when `metadata_added` records were added. No commit message: it lands in the
// work tree only.
[[nodiscard]] Plan init_ids_plan(const InitIdsPlan& plan, const Metadata& metadata,
                                 int metadata_added);

// The commit `recall maintain` makes: the result's writes, subject
// `vault(recall-maintain): <what>`, one body line per applied action, trailers
// `Vault-Action: recall-maintain`, `Vault-Log-Id: recall_<seconds>` and the affected ids.
[[nodiscard]] Plan maintain_plan(const MaintainResult& result, Instant now);

}  // namespace gv::recall
