#include "core/util/json_output.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace gv::util {
namespace {

template <class Json>
std::string dump(const Json& document) {
  std::string out = document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  out += '\n';
  return out;
}

void write_stdout(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

}  // namespace

std::string dump_json(const nlohmann::ordered_json& document) { return dump(document); }
std::string dump_json(const nlohmann::json& document) { return dump(document); }
void print_json(const nlohmann::ordered_json& document) { write_stdout(dump(document)); }
void print_json(const nlohmann::json& document) { write_stdout(dump(document)); }

}  // namespace gv::util
