#include "core/git/blob_hasher.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <array>
#include <iterator>

#include "core/error.hpp"

namespace gv::git {

struct BlobHasher::State {
  EVP_MD_CTX* context = nullptr;
};

BlobHasher::BlobHasher(std::size_t size, std::string_view type)
    : m_state(std::make_unique<State>()), m_expected(size) {
  m_state->context = EVP_MD_CTX_new();
  if (m_state->context == nullptr ||
      EVP_DigestInit_ex(m_state->context, EVP_sha1(), nullptr) != 1) {
    EVP_MD_CTX_free(m_state->context);
    throw Error("blob hash: cannot set up SHA-1");
  }
  const std::string header = fmt::format("{} {}", type, size);
  // The header's terminating NUL is part of what git hashes.
  (void)EVP_DigestUpdate(m_state->context, header.c_str(), header.size() + 1);
}

BlobHasher::~BlobHasher() { EVP_MD_CTX_free(m_state->context); }

void BlobHasher::update(std::string_view bytes) {
  m_fed += bytes.size();
  (void)EVP_DigestUpdate(m_state->context, bytes.data(), bytes.size());
}

std::array<unsigned char, 20> BlobHasher::finish_bytes() {
  if (m_fed != m_expected) {
    throw Error("blob hash: {} bytes announced, {} fed", m_expected, m_fed);
  }
  std::array<unsigned char, 20> digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(m_state->context, digest.data(), &length) != 1 || length != 20) {
    throw Error("blob hash: SHA-1 failed");
  }
  return digest;
}

std::string BlobHasher::finish() {
  const std::array<unsigned char, 20> digest = finish_bytes();
  std::string hex;
  hex.reserve(40);
  for (const unsigned char byte : digest) {
    fmt::format_to(std::back_inserter(hex), "{:02x}", byte);
  }
  return hex;
}

std::string hash_blob(std::string_view bytes) {
  BlobHasher hasher(bytes.size());
  hasher.update(bytes);
  return hasher.finish();
}

}  // namespace gv::git
