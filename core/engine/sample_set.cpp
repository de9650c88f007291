#include "engine/sample_set.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "random/seed_streams.h"
#include "tasks/row_sampler.h"

namespace milab {

namespace {

// Zero mean and unit variance per column over all rows (the population deviation, as scikit-learn's StandardScaler
// that bmi uses); a constant column is only centred.
at::Tensor standardised(const at::Tensor& t) {
  if (!t.defined()) return t;
  const at::Tensor mean = t.mean(0, true);
  const at::Tensor sd = t.std(0, /*unbiased=*/false, true);
  return (t - mean) / at::where(sd > 0, sd, at::ones_like(sd));
}

// Apart from the run's generator (estimatorGenerator) and from the task's construction: the data depend on the task,
// N and the seed only. The same generator goes on to permute y for the baseline.
at::Generator sampleSetGenerator(int seed) { return at::make_generator<at::CPUGeneratorImpl>(sampleSetSeed(seed)); }

// "x's 4 of 4 columns, y's 2 of 2": how many columns of each variable have heavy tails; *any set when one has.
QString heavyTailCounts(const Batch& drawn, bool* any) {
  const auto count = [any](const at::Tensor& t) {
    const int64_t heavy = heavyTailedColumns(t).sum().item<int64_t>();
    *any = *any || heavy > 0;
    return QStringLiteral("%1 of %2").arg(heavy).arg(t.size(1));
  };
  QString counts = QStringLiteral("x's %1 columns").arg(count(drawn.x));
  if (drawn.xp.defined()) counts += QStringLiteral(", x''s %1").arg(count(drawn.xp));
  return counts + QStringLiteral(", y's %1").arg(count(drawn.y));
}

}  // namespace

Batch sliceRows(const Batch& b, int64_t start, int64_t length) {
  return {b.x.narrow(0, start, length), b.xp.defined() ? b.xp.narrow(0, start, length) : at::Tensor(),
          b.y.narrow(0, start, length)};
}

ColumnTransform columnTransformNamed(const QString& name) {
  if (name == "asinh") return ColumnTransform::Asinh;
  if (name == "ranks") return ColumnTransform::Ranks;
  if (name == "tails") return ColumnTransform::HeavyTailAsinh;
  return ColumnTransform::None;
}

at::Tensor heavyTailedColumns(const at::Tensor& t) {
  // A few columns at a time, so that the double copies stay near 32 MB whatever the table's size: every finite-set
  // run of a method not marked readsHeavyTails counts its columns (engine/run.cpp).
  const int64_t rows = std::max<int64_t>(t.size(0), 1), step = std::max<int64_t>(1, (int64_t(4) << 20) / rows);
  std::vector<at::Tensor> heavy;
  for (int64_t c = 0; c < t.size(1); c += step) {
    const at::Tensor values = t.narrow(1, c, std::min(step, t.size(1) - c)).to(at::kDouble);
    const at::Tensor centred = values - values.mean(0, true);
    const at::Tensor m2 = centred.pow(2).mean(0), m4 = centred.pow(4).mean(0);
    constexpr double kHeavyTailExcessKurtosis = 10.0;  // sample_set.h says why
    heavy.push_back((m2 > 0).logical_and(m4 > (3.0 + kHeavyTailExcessKurtosis) * m2 * m2));
  }
  return heavy.empty() ? at::zeros({0}, at::TensorOptions().dtype(at::kBool).device(t.device())) : at::cat(heavy);
}

at::Tensor transformedColumns(const at::Tensor& t, ColumnTransform transform) {
  if (!t.defined() || transform == ColumnTransform::None) return t;
  if (transform == ColumnTransform::Asinh) return at::asinh(t);
  if (transform == ColumnTransform::HeavyTailAsinh)
    return at::where(heavyTailedColumns(t).to(t.device()).unsqueeze(0), at::asinh(t), t);
  // The rank of each value in its column (0 .. n-1), at the middle of its 1/n slice of (0, 1), through the
  // normal quantile sqrt(2) erfinv(2u - 1): the largest of 5,000 rows lands at 3.5, however far its tail reached.
  const int64_t n = t.size(0);
  const at::Tensor ranks = t.argsort(int64_t(0)).argsort(int64_t(0)).to(at::kDouble);
  const at::Tensor u = (ranks + 0.5) / double(n);
  return (std::sqrt(2.0) * at::erfinv(2 * u - 1)).to(t.scalar_type());
}

Batch drawSampleRows(const TaskSampler& law, int64_t samples, int seed) {
  at::Generator data = sampleSetGenerator(seed);
  return law.sampleJoint(samples, data);
}

SampleSet::SampleSet(const TaskSampler& law, int64_t samples, double testFraction, int seed, bool permuteY,
                     ColumnTransform transform, bool countHeavyTails, RowPart part) {
  at::Generator data = sampleSetGenerator(seed);
  int64_t heldOut = std::llround(double(samples) * testFraction);
  Batch drawn = law.sampleTable(samples - heldOut, heldOut, data);
  if (countHeavyTails || transform == ColumnTransform::HeavyTailAsinh) {
    bool any = false;
    const QString counts = heavyTailCounts(drawn, &any);
    if (any) heavyTails_ = counts;
    if (transform == ColumnTransform::HeavyTailAsinh)
      transformNote_ = QStringLiteral("transform tails: asinh on %1 (excess kurtosis above 10)").arg(counts);
  }
  const auto prepared = [transform](const at::Tensor& t) { return standardised(transformedColumns(t, transform)); };
  drawn = {prepared(drawn.x), prepared(drawn.xp), prepared(drawn.y)};
  // Where the held-out rows were drawn apart, every reordering below stays within each part.
  const bool apart = law.drawsHeldOutApart();
  const int64_t trainRows = samples - heldOut;
  // One permutation of the training rows, then one of the held-out rows after them.
  const auto within = [&](at::Generator& gen) {
    return at::cat({at::randperm(trainRows, gen, at::kLong), trainRows + at::randperm(heldOut, gen, at::kLong)});
  };
  if (permuteY) {
    const at::Tensor order = apart ? within(data) : at::randperm(samples, data, at::kLong);
    drawn.y = drawn.y.index_select(0, order.to(drawn.y.device()));
  }
  if (!part.whole()) {
    at::Generator order = at::make_generator<at::CPUGeneratorImpl>(rowPartSeed(seed));
    at::Tensor rows;
    if (apart) {
      const int64_t trainSize = trainRows / part.of, heldOutSize = heldOut / part.of;
      const at::Tensor inOrder = within(order);
      rows = at::cat({inOrder.narrow(0, part.index * trainSize, trainSize),
                      inOrder.narrow(0, trainRows + part.index * heldOutSize, heldOutSize)});
      samples = trainSize + heldOutSize;
      heldOut = heldOutSize;
    } else {
      const int64_t size = samples / part.of;
      rows = at::randperm(samples, order, at::kLong).narrow(0, part.index * size, size);
      samples = size;
      heldOut = std::llround(double(samples) * testFraction);
    }
    const auto take = [&rows](const at::Tensor& t) { return t.defined() ? t.index_select(0, rows.to(t.device())) : t; };
    drawn = {take(drawn.x), take(drawn.xp), take(drawn.y)};
  }
  // The rows are independent draws: the last ones are as random a held-out part as any.
  train_ = sliceRows(drawn, 0, samples - heldOut);
  heldOut_ = sliceRows(drawn, samples - heldOut, heldOut);
}

Batch SampleSet::all() const {
  const auto cat = [](const at::Tensor& a, const at::Tensor& b) { return a.defined() ? at::cat({a, b}) : a; };
  return {cat(train_.x, heldOut_.x), cat(train_.xp, heldOut_.xp), cat(train_.y, heldOut_.y)};
}

std::unique_ptr<TaskSampler> SampleSet::trainingSampler() const { return std::make_unique<RowSampler>(train_); }

}  // namespace milab
