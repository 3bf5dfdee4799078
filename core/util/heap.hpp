#pragma once

namespace gv::util {

// How much heap a run expects to touch.
enum class HeapUse {
  // A few dozen pages (a commit hook answered from its baseline): a huge page would be cleared
  // whole for them, and reserving and advising the heap costs more than the faults it saves.
  small,
  // Megabytes and more (a report, an index, a search over the vault).
  large,
};

// Sets up the process heap for git-vault's allocation pattern: big buffers stay in the heap
// instead of being mapped and unmapped one by one, and for `HeapUse::large` the heap is backed
// by transparent huge pages where the system offers them (doc/performance.md, "Page faults and
// the heap"). Called once, first thing in main, before any thread starts.
void tune_heap(HeapUse use);

}  // namespace gv::util
