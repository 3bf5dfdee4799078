#include "core/git/loose_object.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <array>
#include <cerrno>

namespace gv::git {
namespace {

// Closes the descriptor and ends the inflate stream on every path out.
struct Inflater {
  int fd = -1;
  z_stream stream{};
  bool started = false;
  Inflater() = default;
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  ~Inflater() {
    if (started) {
      inflateEnd(&stream);
    }
    if (fd >= 0) {
      ::close(fd);
    }
  }
};

bool is_hex_oid(std::string_view oid) {
  if (oid.size() != 40) {
    return false;
  }
  for (const char c : oid) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<std::string> loose_blob_head(const std::filesystem::path& objects_dir,
                                           std::string_view oid, std::size_t max_bytes) {
  if (!is_hex_oid(oid)) {
    return std::nullopt;
  }
  const std::filesystem::path file =
      objects_dir / std::string(oid.substr(0, 2)) / std::string(oid.substr(2));
  Inflater in;
  in.fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (in.fd < 0 || inflateInit(&in.stream) != Z_OK) {
    return std::nullopt;
  }
  in.started = true;

  // "blob <size>\0" comes first; 32 bytes hold any header.
  std::string out(max_bytes + 32, '\0');
  in.stream.next_out = reinterpret_cast<Bytef*>(out.data());  // NOLINT: zlib's byte type
  in.stream.avail_out = static_cast<uInt>(out.size());
  std::array<char, 4096> chunk{};
  int rc = Z_OK;
  while (in.stream.avail_out > 0 && rc != Z_STREAM_END) {
    const ssize_t got = ::read(in.fd, chunk.data(), chunk.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      return std::nullopt;  // truncated object
    }
    in.stream.next_in = reinterpret_cast<Bytef*>(chunk.data());  // NOLINT: zlib's byte type
    in.stream.avail_in = static_cast<uInt>(got);
    while (in.stream.avail_in > 0 && in.stream.avail_out > 0) {
      rc = inflate(&in.stream, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        break;
      }
      if (rc != Z_OK) {
        return std::nullopt;
      }
    }
  }
  out.resize(out.size() - in.stream.avail_out);
  const std::size_t nul = out.find('\0');
  if (out.compare(0, 5, "blob ") != 0 || nul == std::string::npos || nul > 30) {
    return std::nullopt;
  }
  out.erase(0, nul + 1);
  if (out.size() > max_bytes) {
    out.resize(max_bytes);
  }
  return out;
}

}  // namespace gv::git
