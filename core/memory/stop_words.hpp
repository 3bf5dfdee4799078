#pragma once

#include <string_view>

namespace gv {

// True for the words the original auto-retrieval drops (doc/search.md, "Stop words"): the
// one list search, context, learn and the telemetry sub-modes' key terms all use.
[[nodiscard]] bool is_stop_word(std::string_view lowered);

}  // namespace gv
