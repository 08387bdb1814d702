// SHA-256 through OpenSSL's EVP interface (uses SHA-NI where the CPU has it).
#include "lsp/support/sha256.h"

#include "engine/support/hex.h"

#include <openssl/evp.h>

namespace hashline {

struct Sha256::Context {
  EVP_MD_CTX* md = nullptr;
};

Sha256::Sha256() : context_(std::make_unique<Context>()) {
  context_->md = EVP_MD_CTX_new();
  EVP_DigestInit_ex(context_->md, EVP_sha256(), nullptr);
}

Sha256::~Sha256() {
  EVP_MD_CTX_free(context_->md);
}

void Sha256::update(std::string_view bytes) {
  if (!bytes.empty()) EVP_DigestUpdate(context_->md, bytes.data(), bytes.size());
}

std::string Sha256::finishHex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(context_->md, digest, &length);
  return hexOfBytes(std::string_view(reinterpret_cast<const char*>(digest), length));
}

std::string Sha256::hex(std::string_view bytes) {
  Sha256 hasher;
  hasher.update(bytes);
  return hasher.finishHex();
}

} // namespace hashline
