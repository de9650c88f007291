#include "engine/independence_test.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/held_out_reading.h"
#include "engine/sample_set.h"
#include "engine/training_session.h"
#include "random/seed_streams.h"

namespace milab {

double permutationPValue(double observed, const double* permuted, int n, bool twoSided) {
  if (n <= 0 || !std::isfinite(observed)) return std::numeric_limits<double>::quiet_NaN();
  double centre = 0;
  if (twoSided) {
    std::vector<double> all(permuted, permuted + n);
    all.push_back(observed);
    std::sort(all.begin(), all.end());
    centre = all.size() % 2 ? all[all.size() / 2] : (all[all.size() / 2 - 1] + all[all.size() / 2]) / 2;
  }
  const auto statistic = [&](double r) { return twoSided ? std::abs(r - centre) : r; };
  int atOrAbove = 0;
  for (int i = 0; i < n; ++i) atOrAbove += statistic(permuted[i]) >= statistic(observed);
  return (1.0 + atOrAbove) / (1.0 + n);
}

IndependenceTest permutationTest(TrainingSession& session, bool trains, bool whole, bool twoSided, double observed,
                                 int permutations, int seed, const std::atomic<bool>& cancel) {
  const SampleSet& set = *session.sampleSet();
  const Batch part = trains ? set.heldOut() : set.all();
  const int64_t rows = part.y.size(0);
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(permutationTestSeed(seed));
  std::vector<double> readings;
  for (int i = 0; i < permutations && !cancel.load(); ++i) {
    const at::Tensor order = at::randperm(rows, gen, at::TensorOptions(at::kLong)).to(part.y.device());
    const Batch permuted{part.x, part.xp, part.y.index_select(0, order)};
    double v = 0;
    try {
      v = trains ? partReading(session, permuted, whole, cancel).value : session.evaluate(permuted).value;
    } catch (const EstimatorCancelled&) {
      break;  // the run's cancel, polled inside a reading: the readings so far stand, the run keeps its estimate
    }
    if (std::isfinite(v) && !cancel.load()) readings.push_back(v);
  }
  IndependenceTest t;
  t.permutations = int(readings.size());
  t.pValue = permutationPValue(observed, readings.data(), t.permutations, twoSided);
  if (!readings.empty()) {
    double se = 0;
    meanAndStderr(readings, &t.permutedMean, &se);
    if (readings.size() > 1) t.permutedSd = se * std::sqrt(double(readings.size()));  // one reading has no spread
  }
  return t;
}

}  // namespace milab
