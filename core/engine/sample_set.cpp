#include "engine/sample_set.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <stdexcept>

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

Batch rows(const Batch& b, const at::Tensor& index) {
  return {b.x.index_select(0, index), b.xp.defined() ? b.xp.index_select(0, index) : at::Tensor(),
          b.y.index_select(0, index)};
}

Batch slice(const Batch& b, int64_t start, int64_t length) {
  return {b.x.narrow(0, start, length), b.xp.defined() ? b.xp.narrow(0, start, length) : at::Tensor(),
          b.y.narrow(0, start, length)};
}

class TrainingPartSampler final : public TaskSampler {
 public:
  TrainingPartSampler(const Batch& part, int dimX, int dimY)
      : TaskSampler(part.x.device()), part_(part), dimX_(dimX), dimY_(dimY) {}

  int dimX() const override { return dimX_; }
  int dimY() const override { return dimY_; }
  // x' columns are data here: critics read [x, x'] as usual, but nothing samples p(y|x').
  bool hasSubview() const override { return part_.xp.defined(); }

  // n distinct rows (as bmi's minibatches, drawn without replacement), chosen with the caller's generator.
  Batch sampleJoint(int64_t n, at::Generator& gen) const override {
    const int64_t available = part_.x.size(0);
    if (n > available)
      throw std::invalid_argument("samples: a batch of " + std::to_string(n) + " rows needs at least that many " +
                                  "training rows, the training part has " + std::to_string(available));
    const at::Tensor index =
        at::randperm(available, gen, at::TensorOptions().dtype(at::kLong).device(gen.device())).narrow(0, 0, n);
    return rows(part_, index.to(device()));
  }

 private:
  Batch part_;
  int dimX_, dimY_;
};

}  // namespace

SampleSet::SampleSet(const TaskSampler& law, int64_t samples, double testFraction, int seed, bool permuteY) {
  // Apart from the run's generator (estimatorGenerator) and from the task's construction: the data depend on the
  // task, N and the seed only.
  at::Generator data = at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(seed) * 104729u + 7u);
  Batch drawn = law.sampleJoint(samples, data);
  drawn = {standardised(drawn.x), standardised(drawn.xp), standardised(drawn.y)};
  if (permuteY) drawn.y = drawn.y.index_select(0, at::randperm(samples, data, at::kLong).to(drawn.y.device()));
  const int64_t heldOut = std::llround(double(samples) * testFraction);
  // The rows are independent draws: the last ones are as random a held-out part as any.
  train_ = slice(drawn, 0, samples - heldOut);
  heldOut_ = slice(drawn, samples - heldOut, heldOut);
}

Batch SampleSet::all() const {
  const auto cat = [](const at::Tensor& a, const at::Tensor& b) { return a.defined() ? at::cat({a, b}) : a; };
  return {cat(train_.x, heldOut_.x), cat(train_.xp, heldOut_.xp), cat(train_.y, heldOut_.y)};
}

Batch SampleSet::heldOutBatch(int64_t i, int64_t size) const { return slice(heldOut_, i * size, size); }

std::unique_ptr<TaskSampler> SampleSet::trainingSampler() const {
  return std::make_unique<TrainingPartSampler>(train_, int(train_.x.size(1)), int(train_.y.size(1)));
}

}  // namespace milab
