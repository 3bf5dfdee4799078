#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/mcp/line_reader.hpp"

namespace mcp_line_reader_test {

using gv::mcp::InputLine;
using gv::mcp::LineReader;

namespace {

// A source handing out `input` at most `chunk` bytes per read, as a pipe may.
LineReader::Source from(const std::string& input, std::size_t chunk) {
  auto offset = std::make_shared<std::size_t>(0);
  return [input, chunk, offset](char* into, std::size_t size) {
    const std::size_t count = std::min({size, chunk, input.size() - *offset});
    std::memcpy(into, input.data() + *offset, count);
    *offset += count;
    return count;
  };
}

std::vector<InputLine> read_all(const std::string& input, std::size_t chunk,
                                std::size_t max_bytes) {
  LineReader reader(from(input, chunk), max_bytes);
  std::vector<InputLine> lines;
  while (std::optional<InputLine> line = reader.next()) {
    lines.push_back(std::move(*line));
  }
  return lines;
}

}  // namespace

TEST_CASE("the line reader splits on newlines across reads of any size", "[mcp]") {
  for (const std::size_t chunk : {1, 3, 7, 1 << 16}) {
    const std::vector<InputLine> lines = read_all("one\n\ntwo three\nlast", chunk, 100);
    INFO(chunk);
    REQUIRE(lines.size() == 4);
    CHECK(lines[0].text == "one");
    CHECK(lines[1].text.empty());
    CHECK(lines[2].text == "two three");
    CHECK(lines[3].text == "last");  // no newline at the end still counts
    for (const InputLine& line : lines) {
      CHECK_FALSE(line.cut());
    }
  }
  CHECK(read_all("", 10, 100).empty());
}

TEST_CASE("the line reader keeps the head and tail of a line past its cap, then goes on", "[mcp]") {
  const std::string long_line = "HEAD" + std::string(1'000'000, 'x') + "TAIL";
  for (const std::size_t chunk : {997, 1 << 16}) {
    const std::vector<InputLine> lines = read_all(long_line + "\nnext\n", chunk, 100);
    INFO(chunk);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].cut());
    CHECK(lines[0].bytes == long_line.size());
    CHECK(lines[0].text == long_line.substr(0, 100));
    CHECK(lines[0].tail.size() == LineReader::k_tail_bytes);
    CHECK(lines[0].tail == long_line.substr(long_line.size() - LineReader::k_tail_bytes));
    CHECK(lines[1].text == "next");
    CHECK_FALSE(lines[1].cut());
  }
  // A line just past the cap: its tail takes the end of the head too.
  const std::vector<InputLine> near = read_all(std::string(100, 'a') + "bc\n", 7, 100);
  REQUIRE(near.size() == 1);
  CHECK(near[0].cut());
  CHECK(near[0].tail == std::string(100, 'a') + "bc");
}

}  // namespace mcp_line_reader_test
