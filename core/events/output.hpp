#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/events/event.hpp"

// The three output formats of `git vault events` (those of the original `events-query.sh`) and
// the `--json` document, written row by row so that a large result is never held in memory.
namespace gv::events {

enum class OutputFormat { jsonl, json_array, summary_counts };

// `jsonl`, `json-array` or `summary-counts`; nullopt for anything else.
[[nodiscard]] std::optional<OutputFormat> parse_output_format(std::string_view name);

class EventPrinter {
 public:
  using Sink = std::function<void(std::string_view)>;

  // `json_document`: one `{"schema": 1, …}` document instead of the format's own shape (the
  // `--json` contract). Text goes to `sink` as soon as it is known.
  EventPrinter(OutputFormat format, bool json_document, Sink sink);

  // One event that passed the filters.
  void row(const Event& event);
  // Ends the output. `store_exists` false gives the missing-store shapes; `invalid_lines` is
  // reported in the `--json` document.
  void finish(bool store_exists, std::size_t invalid_lines);

 private:
  OutputFormat m_format;
  bool m_json_document;
  Sink m_sink;
  SummaryCounts m_counts;
  std::size_t m_rows = 0;
};

}  // namespace gv::events
