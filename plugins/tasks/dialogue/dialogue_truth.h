#pragma once
// The dialogue task's truths (dialogue_law.h): I(x; y), I(x'; y) and I(x; y | x') as Monte Carlo means of exact
// log-ratios over joint draws (log p(y | x) - log p(y), log p(y | x') - log p(y), log p(y | x) - log p(y | x')), each
// with its standard error (the log-ratio's standard deviation / sqrt n, as bmi states a mixture's truth). The chain
// rule holds draw by draw, so the three means add up exactly.
#include <cstdint>

#include "dialogue_law.h"

namespace milab::dialogue {

struct MonteCarloValue {
  double mean = 0, standardError = 0;
};

struct DialogueTruths {
  MonteCarloValue total, subview, conditional;  // I(x;y), I(x';y), I(x;y|x')
  int64_t samples = 0;
};

// Draws enough for standard errors near 0.002 nats at the preset's setting; the seed they are drawn with.
inline constexpr int64_t kTruthSamples = 400000;
inline constexpr std::uint64_t kTruthSeed = 0;

DialogueTruths monteCarloTruths(const DialogueLaw& law, int64_t samples, std::uint64_t seed);
// The truths at kTruthSamples and kTruthSeed, computed once per setting and kept in the lab's cache
// (engine/reference_cache.h); a cache that cannot be written still gives them.
DialogueTruths cachedTruths(const DialogueLaw& law);

}  // namespace milab::dialogue
