#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/search/analyzer.hpp"

namespace search_analyzer_test {

using gv::search::analyze;
using gv::search::query_terms;
using Terms = std::vector<std::string>;

namespace {

Terms tokens(std::string_view text) {
  Terms out;
  gv::search::for_each_token(text, [&](std::string_view token, std::size_t offset) {
    CHECK(text.substr(offset, token.size()) == token);
    out.emplace_back(token);
  });
  return out;
}

}  // namespace

TEST_CASE("tokens join words with _ always and with - or . only between word bytes",
          "[search][analyzer]") {
  CHECK(tokens("z3 max_time, service-worker; node.js v1.2.") ==
        Terms{"z3", "max_time", "service-worker", "node.js", "v1.2"});
  CHECK(tokens("a dash - between words. End.") == Terms{"a", "dash", "between", "words", "End"});
  CHECK(tokens("__init__ trailing_ -leading") == Terms{"init", "trailing", "leading"});
  CHECK(tokens("python/payments [[MEM-x]]") == Terms{"python", "payments", "MEM-x"});
  CHECK(tokens("the agent's panel and the agent’s tools") ==
        Terms{"the", "agent", "panel", "and", "the", "agent", "tools"});
  CHECK(tokens("naïve café") == Terms{"naïve", "café"});
  // Typographic quotes, dashes and the ellipsis separate words as their ASCII forms do.
  CHECK(tokens("“quoted”—dash–range…end ‘single’") ==
        Terms{"quoted", "dash", "range", "end", "single"});
  CHECK(tokens("").empty());
  CHECK(tokens("--- ... ___").empty());
}

TEST_CASE("compounds are kept whole and split into their parts", "[search][analyzer]") {
  CHECK(analyze("max_time") == Terms{"max_time", "max", "time"});
  CHECK(analyze("service-workers") == Terms{"service-worker", "servic", "worker"});
  CHECK(analyze("cold-start") == Terms{"cold-start", "cold", "start"});
  CHECK(analyze("retryAfter") == Terms{"retryafter", "retri", "after"});
  CHECK(analyze("HTTPServer") == Terms{"httpserver", "http", "server"});
  CHECK(analyze("retry_after_retry") == Terms{"retry_after_retri", "retri", "after"});
}

TEST_CASE(
    "words of four bytes or more are stemmed with Snowball's English stemmer, never with a digit",
    "[search][analyzer]") {
  CHECK(analyze("keybinding keybindings Keybindings") == Terms{"keybind", "keybind", "keybind"});
  CHECK(analyze("retry retries retrying retried") == Terms{"retri", "retri", "retri", "retri"});
  CHECK(analyze("cache caches caching") == Terms{"cach", "cach", "cach"});
  CHECK(analyze("z3 k8s utf8 v2") == Terms{"z3", "k8s", "utf8", "v2"});
  // Short technical words are terms like any other.
  // Short words are mostly names and acronyms: `aws` and `ios` are not plurals.
  CHECK(analyze("vim ci sql jwt aws ios") == Terms{"vim", "ci", "sql", "jwt", "aws", "ios"});
  CHECK(gv::search::stem("running") == "run");
  CHECK(gv::search::stem("ab") == "ab");
}

TEST_CASE("a query drops stop words, matched before stemming, unless nothing else is left",
          "[search][analyzer]") {
  CHECK(query_terms("How does the Retries work with hooks?") == Terms{"retri", "work", "hook"});
  CHECK(query_terms("enable vim mode in zed") == Terms{"enabl", "vim", "mode", "zed"});
  CHECK(query_terms("I want you to add a keybinding, please") == Terms{"want", "add", "keybind"});
  CHECK(query_terms("don't let's") == Terms{"don", "t", "let"});
  CHECK(query_terms("the the") == Terms{"the"});
  CHECK(query_terms("  ").empty());
  // A compound is kept whole even when a part is a stop word.
  CHECK(query_terms("out-of-memory") == Terms{"out-of-memori", "memori"});
  // Repeats count once.
  CHECK(query_terms("retry retries") == Terms{"retri"});
}

}  // namespace search_analyzer_test
