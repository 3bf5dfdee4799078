#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/distill/term_scoring.hpp"
#include "core/events/event.hpp"
#include "core/memory/memory.hpp"

namespace gv::test {

// A plain stand-in for the Key Term Extraction and Overlap Scoring primitives: every distinct
// lower-cased word of four letters or more is a term; overlap is |segment ∩ memory| / |segment|.
inline distill::TermScoring simple_terms() {
  distill::TermScoring scoring;
  scoring.key_terms = [](std::string_view text) {
    std::vector<std::string> out;
    std::string word;
    const auto flush = [&] {
      if (word.size() >= 4 && word != "with" && word != "that" && word != "this" &&
          std::find(out.begin(), out.end(), word) == out.end()) {
        out.push_back(word);
      }
      word.clear();
    };
    for (char c : text) {
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') {
        word += c;
      } else if (c >= 'A' && c <= 'Z') {
        word += static_cast<char>(c - 'A' + 'a');
      } else {
        flush();
      }
    }
    flush();
    return out;
  };
  scoring.words = [](const std::vector<std::string>& terms) {
    std::set<std::string> out;
    for (const std::string& s : terms) {
      std::string lowered;
      for (char c : s) {
        lowered += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      }
      out.insert(lowered);
    }
    return out;
  };
  scoring.overlap = [words = scoring.words](const std::vector<std::string>& segment,
                                            const std::vector<std::string>& memory) {
    const std::set<std::string> a = words(segment);
    const std::set<std::string> b = words(memory);
    if (a.empty()) {
      return 0.0;
    }
    const auto shared =
        std::count_if(a.begin(), a.end(), [&](const std::string& w) { return b.contains(w); });
    return static_cast<double>(shared) / static_cast<double>(a.size());
  };
  return scoring;
}

inline Memory memory(std::string id, std::vector<std::string> keywords, std::string source = "",
                     std::string title = "") {
  Memory m;
  m.id = std::move(id);
  m.path = ".memory/10-Memories/" + m.id + ".md";
  m.title = title.empty() ? m.id : std::move(title);
  m.keywords = std::move(keywords);
  m.source = std::move(source);
  return m;
}

struct EventSpec {
  std::string id;
  std::string category = "deviation";
  std::string event_type = "deviation";
  std::string session = "sess_1_a";
  std::string message = "something happened";
  std::optional<std::int64_t> task = std::nullopt;
  std::optional<std::string> checkpoint = std::nullopt;
  std::string timestamp = "2026-11-01T00:00:00Z";
  nlohmann::ordered_json detail = nlohmann::ordered_json::object();
};

inline events::Event event(const EventSpec& spec) {
  events::Event e;
  e.event_id = spec.id;
  e.category = spec.category;
  e.event_type = spec.event_type;
  e.session_id = spec.session;
  e.message = spec.message;
  e.task = spec.task;
  e.checkpoint = spec.checkpoint;
  e.timestamp = spec.timestamp;
  e.detail = spec.detail;
  return e;
}

}  // namespace gv::test
