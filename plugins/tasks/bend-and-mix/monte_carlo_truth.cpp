#include "monte_carlo_truth.h"

#include <ATen/CPUGeneratorImpl.h>

#include <QJsonObject>
#include <cmath>

#include "engine/reference_cache.h"

namespace milab::bend_and_mix {

MonteCarloTruth monteCarloMi(const GaussianMixture& mixture, int64_t samples, std::uint64_t seed) {
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  constexpr int64_t kBlock = 10000;
  // Welford's running mean and sum of squared deviations, block by block.
  double mean = 0, squares = 0;
  int64_t seen = 0;
  for (int64_t start = 0; start < samples; start += kBlock) {
    const Eigen::VectorXd pmi = mixture.pointwiseMi(mixture.sample(std::min(kBlock, samples - start), gen));
    for (Eigen::Index i = 0; i < pmi.size(); ++i) {
      ++seen;
      const double delta = pmi(i) - mean;
      mean += delta / double(seen);
      squares += delta * (pmi(i) - mean);
    }
  }
  // bmi divides by n (jnp.std's default) before the square root of n.
  return {mean, std::sqrt(squares / double(seen)) / std::sqrt(double(seen)), seen};
}

MonteCarloTruth cachedTruth(const QString& taskId, const GaussianMixture& mixture) {
  // The version names the sampler and density code: a change to either that moves the draws must bump it.
  const QJsonObject setting{{"task", taskId},
                            {"samples", double(kTruthSamples)},
                            {"seed", double(kTruthSeed)},
                            {"version", 1}};
  const std::optional<QJsonObject> value = cachedOrComputedObject("monte-carlo-truth", setting, [&] {
    const MonteCarloTruth t = monteCarloMi(mixture, kTruthSamples, kTruthSeed);
    return std::optional<QJsonObject>(QJsonObject{{"mean", t.mean}, {"standard_error", t.standardError}});
  });
  if (!value || !value->value("mean").isDouble() || !value->value("standard_error").isDouble())
    return monteCarloMi(mixture, kTruthSamples, kTruthSeed);  // a cache file of another shape
  return {value->value("mean").toDouble(), value->value("standard_error").toDouble(), kTruthSamples};
}

}  // namespace milab::bend_and_mix
