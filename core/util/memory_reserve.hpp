#pragma once

// Room kept for the way out of an allocation that failed. An out-of-memory error ends the
// command with one line (cmd/main.cpp), but the destructors that run while std::bad_alloc
// unwinds may allocate themselves: nlohmann::json flattens what it frees into a vector as long
// as the array it frees. One that fails there throws out of a destructor, and the process ends
// with SIGABRT ("terminate called after throwing an instance of 'std::bad_alloc'") instead.
namespace gv::util {

// Sets aside 16 MiB of address space, never touched, and installs the C++ new-handler that
// gives it back when an allocation fails, then throws std::bad_alloc as the allocation would
// have. Called once, at the start of main.
void keep_memory_reserve();

// Gives the reserve back and throws std::bad_alloc: for an allocation that failed outside
// operator new (libgit2's, core/git/handle.hpp).
[[noreturn]] void throw_out_of_memory();

}  // namespace gv::util
