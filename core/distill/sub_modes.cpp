#include <utility>

#include "core/distill/sub_mode.hpp"
#include "core/distill/sub_mode_registry.hpp"

namespace gv::distill {

// Each sub-mode lives in core/distill/<name>.cpp and exports its factory here.
std::unique_ptr<SubMode> make_purge();
std::unique_ptr<SubMode> make_merge();
std::unique_ptr<SubMode> make_compress();
std::unique_ptr<SubMode> make_refine();
std::unique_ptr<SubMode> make_gc();
std::unique_ptr<SubMode> make_auto();  // core/distill/auto_mode.cpp
std::unique_ptr<SubMode> make_revise();
std::unique_ptr<SubMode> make_meta();
std::unique_ptr<SubMode> make_review();
std::unique_ptr<SubMode> make_learn();
std::unique_ptr<SubMode> make_dream();

const SubModeRegistry& builtin_sub_modes() {
  // In help order. `auto` logs as `refine`, so refine's counter counts it too.
  static const SubModeRegistry registry({
      {"purge", "Tombstone stale or never-retrieved memories", "total_purged", true, make_purge},
      {"merge", "Merge memories with overlapping keywords", "total_merged", true, make_merge},
      {"compress", "Summarise oversized memories", "total_compressed", true, make_compress},
      {"refine", "Fix metadata quality issues", "total_refined", true, make_refine},
      {"gc", "Delete memories tombstoned more than 7 days ago", "total_gc_deleted", true, make_gc},
      {"auto", "Apply automatic metadata fixes without a prompt", "", true, make_auto},
      // The telemetry sub-modes (doc/telemetry.md) keep their counters in their own logs.
      {"revise",
       "Update or tombstone memories that recorded events contradict (three strikes in distinct "
       "sessions); expect misses",
       "", true, make_revise},
      {"meta",
       "Propose agent-system improvements from recurring deviations, blockers and reflections "
       "(this repository's events only); expect misses",
       "", true, make_meta},
      {"review", "Answer a question from the vault, events and history, citing every record", "",
       true, make_review, "QUESTION"},
      {"learn", "Harvest the unharvested memory candidates of archived tasks", "", true,
       make_learn},
      {"dream", "Surface recurring prompt themes that no memory or open task covers", "", true,
       make_dream},
  });
  return registry;
}

std::unique_ptr<SubMode> make_sub_mode(std::string_view name) {
  return builtin_sub_modes().make(name);
}

}  // namespace gv::distill
