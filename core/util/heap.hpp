#pragma once

namespace gv::util {

// Sets up the process heap for git-vault's allocation pattern: big buffers stay in the heap
// instead of being mapped and unmapped one by one, and the heap is backed by transparent huge
// pages where the system offers them (doc/performance.md, "Page faults and the heap"). Called
// once, before any other static constructor and before any thread starts (cmd/main.cpp).
void tune_heap();

}  // namespace gv::util
