#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace gv::git {

// The git blob id of bytes fed in pieces, so a multi-megabyte file assembled from cached parts
// can be compared with a blob id without being built in memory or read back from the object
// database. The size must be known up front: git hashes "blob <size>\0" before the bytes.
//
// Plain SHA-1 (OpenSSL's libcrypto, which uses the CPU's SHA instructions where it has them),
// not the collision-detecting variant git writes objects with: the two agree on every object
// without a crafted collision, and the ids here are only compared with blob ids, never stored.
// It is several times faster, which matters for hashing megabytes of index on every commit.
class BlobHasher {
 public:
  // `type` is the object's: a tree is hashed the same way with "tree".
  explicit BlobHasher(std::size_t size, std::string_view type = "blob");
  BlobHasher(const BlobHasher&) = delete;
  BlobHasher& operator=(const BlobHasher&) = delete;
  ~BlobHasher();

  void update(std::string_view bytes);
  // 40 lower-case hex chars. Throws gv::Error when fewer or more bytes were fed than announced.
  [[nodiscard]] std::string finish();
  // The same id as 20 bytes, as a tree entry holds it.
  [[nodiscard]] std::array<unsigned char, 20> finish_bytes();

 private:
  struct State;
  std::unique_ptr<State> m_state;
  std::size_t m_expected;
  std::size_t m_fed = 0;
};

// The blob id of `bytes` in one call.
[[nodiscard]] std::string hash_blob(std::string_view bytes);

}  // namespace gv::git
