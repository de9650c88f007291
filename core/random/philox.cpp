#include "random/philox.h"

#include <math.h>

#include <algorithm>
#include <cstring>

#include "nn/target_clones.h"

namespace milab {

namespace {

// Philox4x32's multipliers and Weyl key increments (Salmon et al. 2011, as Random123 and cuRAND define them).
constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u, kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
constexpr int kRounds = 10;
constexpr int64_t kCallsPerChunk = 1024;                  // 4,096 normals, 16 KB: the chunk stays in L1
constexpr float kTwoToMinus32 = 2.3283064365386963e-10f;  // 2^-32
constexpr float kTwoPi = 6.2831853071795864f;

// Cloned for x86-64-v4 (AVX-512) and v3 beside the baseline (nn/target_clones.h); CMakeLists.txt compiles this
// file with -ffast-math, without which GCC declares no vector variants of logf/cosf/sinf and the transform stays
// scalar (its inputs are finite by construction).

// One chunk: calls first..first+1023 of Philox, four words each, into four streams of uniforms, then Box-Muller
// on the pairs (u0, u1) and (u2, u3). The words are kept in separate arrays so that every loop is a vector loop.
// `wanted` (1..4096) of the chunk's normals are needed: a partial chunk (the tail of a draw) computes only the calls
// and the parts that hold them, each loop rounded up to 16 lanes (so no loop has a scalar tail, whose scalar
// logf/cosf/sinf would round differently from the vector ones: a normal is the same float in a whole chunk and a
// partial one), and `out` must have room for the parts rounded so (a whole chunk's 4096).
MILAB_CLONED_FOR_AVX512 void philoxChunk(float* __restrict out, uint64_t first, uint32_t k0, uint32_t k1,
                                         int64_t wanted) {
  float radius0[kCallsPerChunk], angle0[kCallsPerChunk], radius1[kCallsPerChunk], angle1[kCallsPerChunk];
  const auto roundedUp = [](int64_t n) { return std::min<int64_t>((n + 15) / 16 * 16, kCallsPerChunk); };
  // Part p of the chunk (out[1024 p .. 1024 p + 1023]) needs calls 0 .. partCalls(p) - 1.
  const auto partCalls = [&](int p) {
    return roundedUp(std::clamp<int64_t>(wanted - p * kCallsPerChunk, 0, kCallsPerChunk));
  };
  const int64_t calls = partCalls(0);
  const uint32_t high = static_cast<uint32_t>(first >> 32), low = static_cast<uint32_t>(first);
#pragma omp simd
  for (int64_t i = 0; i < calls; ++i) {
    uint32_t c0 = low + static_cast<uint32_t>(i), c1 = high, c2 = 0, c3 = 0, a = k0, b = k1;
    for (int r = 0; r < kRounds; ++r) {
      const uint64_t p0 = uint64_t{kM0} * c0, p1 = uint64_t{kM1} * c2;
      const uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c1 ^ a, n2 = static_cast<uint32_t>(p0 >> 32) ^ c3 ^ b;
      c1 = static_cast<uint32_t>(p1);
      c3 = static_cast<uint32_t>(p0);
      c0 = n0;
      c2 = n2;
      a += kW0;
      b += kW1;
    }
    // The radius's uniform keeps all 32 bits (the smallest is 2^-33: radii up to ~6.7), the angle's needs no tail.
    radius0[i] = (static_cast<float>(c0) + 0.5f) * kTwoToMinus32;
    angle0[i] = static_cast<float>(c1) * (kTwoToMinus32 * kTwoPi);
    radius1[i] = (static_cast<float>(c2) + 0.5f) * kTwoToMinus32;
    angle1[i] = static_cast<float>(c3) * (kTwoToMinus32 * kTwoPi);
  }
  // float(w) rounds words near 2^32 up to 2^32, so u can be 1 (+ the half): the max keeps r real.
#pragma omp simd
  for (int64_t i = 0; i < calls; ++i) radius0[i] = sqrtf(fmaxf(-2.f * logf(radius0[i]), 0.f));
  const int64_t secondPair = partCalls(2);
#pragma omp simd
  for (int64_t i = 0; i < secondPair; ++i) radius1[i] = sqrtf(fmaxf(-2.f * logf(radius1[i]), 0.f));
    // cos and sin in loops of their own: in one loop GCC fuses them into sincosf, which has no vector variant.
#pragma omp simd
  for (int64_t i = 0; i < calls; ++i) out[i] = radius0[i] * cosf(angle0[i]);
  const int64_t sines0 = partCalls(1), cosines1 = secondPair, sines1 = partCalls(3);
#pragma omp simd
  for (int64_t i = 0; i < sines0; ++i) out[kCallsPerChunk + i] = radius0[i] * sinf(angle0[i]);
#pragma omp simd
  for (int64_t i = 0; i < cosines1; ++i) out[2 * kCallsPerChunk + i] = radius1[i] * cosf(angle1[i]);
#pragma omp simd
  for (int64_t i = 0; i < sines1; ++i) out[3 * kCallsPerChunk + i] = radius1[i] * sinf(angle1[i]);
}

}  // namespace

void philoxBlock(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4]) {
  uint32_t c[4] = {counter[0], counter[1], counter[2], counter[3]}, k[2] = {key[0], key[1]};
  for (int r = 0; r < kRounds; ++r) {
    const uint64_t p0 = uint64_t{kM0} * c[0], p1 = uint64_t{kM1} * c[2];
    const uint32_t next[4] = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(p1),
                              static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(p0)};
    std::memcpy(c, next, sizeof c);
    k[0] += kW0;
    k[1] += kW1;
  }
  std::memcpy(out, c, sizeof c);
}

void fillPhiloxNormals(float* out, int64_t n, uint64_t key) {
  const uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  constexpr int64_t perChunk = 4 * kCallsPerChunk;
  int64_t done = 0;
  for (uint64_t first = 0; n - done >= perChunk; first += kCallsPerChunk, done += perChunk)
    philoxChunk(out + done, first, k0, k1, perChunk);
  if (done < n) {  // the last, partial chunk: only its needed parts, the part needed kept
    float last[perChunk];
    philoxChunk(last, static_cast<uint64_t>(done / 4), k0, k1, n - done);
    std::copy(last, last + (n - done), out + done);
  }
}

}  // namespace milab
