#include "core/util/json_output.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string_view>

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

void print_json_streaming_array(const nlohmann::ordered_json& head, std::string_view key,
                                std::size_t count,
                                const std::function<nlohmann::ordered_json(std::size_t)>& item) {
  write_json_streaming_array(head, key, count, item, [](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  });
}

void write_json_streaming_array(const nlohmann::ordered_json& head, std::string_view key,
                                std::size_t count,
                                const std::function<nlohmann::ordered_json(std::size_t)>& item,
                                const std::function<void(std::string_view)>& write) {
  nlohmann::ordered_json whole = head;
  whole[std::string(key)] = nlohmann::ordered_json::array();
  std::string text = dump(whole);
  // dump(2) ends an object whose last member is an empty array with `[]\n}\n`: the items go
  // between the brackets, one level deeper than the key (two indents of two spaces).
  constexpr std::string_view k_tail = "[]\n}\n";
  if (count == 0 || !text.ends_with(k_tail)) {
    write(text);
    return;
  }
  text.resize(text.size() - k_tail.size());
  text += "[\n";
  std::string chunk;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string element =
        item(i).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    std::size_t start = 0;
    while (start <= element.size()) {
      const std::size_t newline = element.find('\n', start);
      const std::size_t end = newline == std::string::npos ? element.size() : newline;
      text += "    ";
      text.append(element, start, end - start);
      if (newline == std::string::npos) {
        break;
      }
      text += '\n';
      start = newline + 1;
    }
    text += i + 1 < count ? ",\n" : "\n";
    if (text.size() >= (1U << 16)) {
      write(text);
      text.clear();
    }
  }
  text += "  ]\n}\n";
  write(text);
}

}  // namespace gv::util
