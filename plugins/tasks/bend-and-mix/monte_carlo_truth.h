#pragma once
// A mixture's I(x; y) as bmi reads it (src/bmi/samplers/_tfp/_core.py monte_carlo_mi_estimate): the mean of the
// exact pointwise MI over samples of the joint, with its standard error (the PMI's standard deviation / sqrt n).
#include <cstdint>

#include "gaussian_mixture.h"

namespace milab::bend_and_mix {

struct MonteCarloTruth {
  double mean = 0, standardError = 0;
  int64_t samples = 0;
};

// bmi's sample size, 100,000 points (its mixtures.py _MC_MI_ESTIMATE_SAMPLE), and the seed the lab draws them with.
inline constexpr int64_t kTruthSamples = 100000;
inline constexpr std::uint64_t kTruthSeed = 0;

// Over `samples` joint draws of a CPU generator seeded by `seed`, in blocks (memory stays small in any dimension).
MonteCarloTruth monteCarloMi(const GaussianMixture& mixture, int64_t samples, std::uint64_t seed);

// The task's truth at kTruthSamples and kTruthSeed, computed once per task id and kept in the lab's cache
// (engine/reference_cache.h); a cache that cannot be written still gives the number.
MonteCarloTruth cachedTruth(const QString& taskId, const GaussianMixture& mixture);

}  // namespace milab::bend_and_mix
