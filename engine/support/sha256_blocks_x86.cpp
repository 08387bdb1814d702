// SHA-256's compression function with the x86 SHA extensions (SHA-NI: sha256rnds2, sha256msg1,
// sha256msg2), used when the CPU reports SHA, SSSE3 and SSE4.1; elsewhere
// sha256BlocksAccelerated() is nullptr and the portable form runs.
#include "engine/support/sha256_blocks.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include "engine/support/sha256_constants.h"

#include <cpuid.h>
#include <immintrin.h>

namespace hashline {

namespace {

bool cpuHasShaExtensions() {
  unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  const bool ssse3 = (ecx & (1u << 9)) != 0, sse41 = (ecx & (1u << 19)) != 0;
  if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0) return false;
  const bool sha = (ebx & (1u << 29)) != 0;
  return ssse3 && sse41 && sha;
}

__attribute__((target("sha,sse4.1,ssse3"))) void
sha256BlocksShaNi(std::uint32_t* state, const unsigned char* data, std::size_t count) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  // The instructions keep the state as (A,B,E,F) and (C,D,G,H).
  __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state)), 0xB1);
  __m128i efgh =
      _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4)), 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
  for (; count > 0; --count, data += kSha256BlockBytes) {
    const __m128i abef_before = abef, cdgh_before = cdgh;
    __m128i words[4]; // the message schedule, four words at a time, in a ring
                      // Unrolled, the ring's indices are constants and the words stay in registers.
#pragma GCC unroll 16
    for (int group = 0; group < 16; ++group) {
      __m128i current;
      if (group < 4) {
        current = _mm_shuffle_epi8(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * group)), byte_swap);
      } else {
        // W[t..t+3] from W[t-16..t-1]: msg1 adds σ0, the aligned W[t-7..t-4], msg2 adds σ1.
        __m128i partial = _mm_sha256msg1_epu32(words[group & 3], words[(group + 1) & 3]);
        partial = _mm_add_epi32(partial,
                                _mm_alignr_epi8(words[(group + 3) & 3], words[(group + 2) & 3], 4));
        current = _mm_sha256msg2_epu32(partial, words[(group + 3) & 3]);
      }
      words[group & 3] = current;
      __m128i with_constants = _mm_add_epi32(
          current,
          _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256RoundConstants + 4 * group)));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, with_constants);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(with_constants, 0x0E));
    }
    abef = _mm_add_epi32(abef, abef_before);
    cdgh = _mm_add_epi32(cdgh, cdgh_before);
  }
  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}

} // namespace

Sha256BlockFunction sha256BlocksAccelerated() {
  return cpuHasShaExtensions() ? &sha256BlocksShaNi : nullptr;
}

} // namespace hashline

#else

namespace hashline {

Sha256BlockFunction sha256BlocksAccelerated() {
  return nullptr;
}

} // namespace hashline

#endif
