#include "engine/subsample_spread.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "random/seed_streams.h"
#include "tasks/task_sampler.h"

namespace milab {

double subsampledVariance(const std::vector<std::vector<double>>& values, const std::vector<int64_t>& partRows,
                          int64_t rows, double* degreesOfFreedom) {
  double pooled = 0, df = 0;
  for (size_t s = 0; s < values.size(); ++s) {
    std::vector<double> v;
    for (double x : values[s])
      if (std::isfinite(x)) v.push_back(x);
    if (v.size() < 2) continue;
    double mean = 0;
    for (double x : v) mean += x / double(v.size());
    double ss = 0;
    for (double x : v) ss += (x - mean) * (x - mean);
    pooled += ss * double(partRows[s]);  // (k - 1) var_k n_k
    df += double(v.size() - 1);
  }
  if (degreesOfFreedom) *degreesOfFreedom = df;
  if (df == 0) return std::numeric_limits<double>::quiet_NaN();
  return pooled / df / double(rows);
}

SubsampledSpread subsampledStandardError(const Batch& rows, int seed, const PartReader& read,
                                         const std::atomic<bool>& cancel) {
  constexpr int kMostParts = 5;
  const int64_t n = rows.y.size(0);
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(subsampleSeed(seed));
  const at::Tensor order = at::randperm(n, gen, at::TensorOptions(at::kLong)).to(rows.y.device());
  const auto take = [&](const at::Tensor& t, int64_t start, int64_t length) {
    return t.defined() ? t.index_select(0, order.narrow(0, start, length)) : t;
  };
  std::vector<std::vector<double>> values;
  std::vector<int64_t> partRows;
  for (int k = 2; k <= kMostParts && n / k >= kFewestPartRows; ++k) {
    const int64_t size = n / k;
    values.emplace_back();
    partRows.push_back(size);
    for (int part = 0; part < k; ++part) {
      if (cancel.load()) return {};
      const int64_t start = part * size;
      try {
        values.back().push_back(
            read(Batch{take(rows.x, start, size), take(rows.xp, start, size), take(rows.y, start, size)}));
      } catch (const std::exception&) {  // a part the method cannot read (fewer rows than it needs): no spread
        return {};
      }
    }
  }
  SubsampledSpread spread;
  for (size_t split = 0; split < values.size(); ++split) {
    double mean = 0;
    for (double v : values[split]) mean += v / double(values[split].size());
    if (std::isfinite(mean)) spread.partMeans.push_back({partRows[split], mean});
  }
  spread.standardError = std::sqrt(subsampledVariance(values, partRows, n, &spread.degreesOfFreedom));
  return spread;
}

}  // namespace milab
