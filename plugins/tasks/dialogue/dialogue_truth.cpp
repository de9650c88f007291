#include "dialogue_truth.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QJsonObject>
#include <cmath>

#include "engine/reference_cache.h"

namespace milab::dialogue {

namespace {

// Running sums of a log-ratio's draws.
struct Moments {
  double sum = 0, squares = 0;
  void add(const at::Tensor& values) {
    sum += values.sum().item<double>();
    squares += values.square().sum().item<double>();
  }
  MonteCarloValue of(int64_t n) const {
    const double mean = sum / double(n);
    const double variance = std::max(0.0, squares / double(n) - mean * mean);
    return {mean, std::sqrt(variance / double(n))};
  }
};

QJsonObject valueJson(const MonteCarloValue& v) { return {{"mean", v.mean}, {"standard_error", v.standardError}}; }

MonteCarloValue valueOf(const QJsonObject& o) {
  return {o.value("mean").toDouble(), o.value("standard_error").toDouble()};
}

}  // namespace

DialogueTruths monteCarloTruths(const DialogueLaw& law, int64_t samples, std::uint64_t seed) {
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  const int k = law.setting().context;
  constexpr int64_t kBlock = 20000;
  Moments total, subview, conditional;
  for (int64_t start = 0; start < samples; start += kBlock) {
    const at::Tensor d = law.sampleDialogues(std::min(kBlock, samples - start), gen);
    const at::Tensor y = d.select(1, k);
    const at::Tensor givenX = law.predictiveLogProbability(law.nextStateGivenContext(d.narrow(1, 0, k)), y);
    const at::Tensor givenXp = law.predictiveLogProbability(law.nextStateGivenLast(d.select(1, k - 1)), y);
    const at::Tensor marginal = law.predictiveLogProbability(law.nextStatePrior(), y);
    total.add(givenX - marginal);
    subview.add(givenXp - marginal);
    conditional.add(givenX - givenXp);
  }
  return {total.of(samples), subview.of(samples), conditional.of(samples), samples};
}

DialogueTruths cachedTruths(const DialogueLaw& law) {
  const DialogueSetting& s = law.setting();
  // The version names the law's and the sampler's code: a change to either that moves the draws must bump it.
  const QJsonObject setting{{"vocabulary", s.vocabulary}, {"length", s.length},   {"topics", s.topics},
                            {"states", s.states},         {"context", s.context}, {"strength", s.strength},
                            {"law_seed", s.lawSeed},      {"samples", double(kTruthSamples)},
                            {"seed", double(kTruthSeed)}, {"version", 1}};
  const std::optional<QJsonObject> value = cachedOrComputedObject("dialogue-truth", setting, [&] {
    const DialogueTruths t = monteCarloTruths(law, kTruthSamples, kTruthSeed);
    return std::optional<QJsonObject>(QJsonObject{{"total", valueJson(t.total)},
                                                  {"subview", valueJson(t.subview)},
                                                  {"conditional", valueJson(t.conditional)}});
  });
  if (!value || !value->value("total").isObject() || !value->value("conditional").isObject())
    return monteCarloTruths(law, kTruthSamples, kTruthSeed);  // a cache file of another shape
  return {valueOf(value->value("total").toObject()), valueOf(value->value("subview").toObject()),
          valueOf(value->value("conditional").toObject()), kTruthSamples};
}

}  // namespace milab::dialogue
