#include "core/vault/cache_codec.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace gv::cache_codec::cache_codec_test {
namespace {

TEST_CASE("a list of strings reads back as written", "[cache]") {
  std::string bytes;
  Writer out(bytes);
  out.strings({"alpha", "", "a keyword longer than the short-string buffer"});
  out.strings({});
  Reader in(bytes, 0, bytes.size());
  CHECK(in.strings() ==
        std::vector<std::string>{"alpha", "", "a keyword longer than the short-string buffer"});
  CHECK(in.strings().empty());
  CHECK_FALSE(in.failed());
  CHECK(in.at() == bytes.size());
}

// The list is sized from its count before it is read; a damaged count must fail the read, not
// ask for terabytes.
TEST_CASE("a list count larger than its record fails the read without allocating for it",
          "[cache]") {
  std::string bytes;
  Writer out(bytes);
  out.u(std::uint64_t{1} << 40U);
  out.str("only one");
  Reader in(bytes, 0, bytes.size());
  std::vector<std::string> read;
  REQUIRE_NOTHROW(read = in.strings());
  CHECK(in.failed());
}

}  // namespace
}  // namespace gv::cache_codec::cache_codec_test
