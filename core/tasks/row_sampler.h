#pragma once
// A TaskSampler over a fixed table of rows: its joint samples are distinct rows (drawn without replacement, as
// bmi's minibatches), chosen with the caller's generator. What a finite sample set trains on and what a user's
// table is. It offers no capability: x' columns, where present, are data, and nothing samples p(y|x').
#include "tasks/task_sampler.h"

namespace milab {

class RowSampler final : public TaskSampler {
 public:
  explicit RowSampler(Batch rows);  // x, y (and x') with one row per sample, on the sampler's device

  int dimX() const override { return int(rows_.x.size(1)); }
  int dimY() const override { return int(rows_.y.size(1)); }
  bool hasSubview() const override { return rows_.xp.defined(); }
  Batch sampleJoint(int64_t n, at::Generator& gen) const override;

 private:
  Batch rows_;
};

}  // namespace milab
