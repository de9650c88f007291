#pragma once
// The class channel (class_channel.h) as a TaskSampler: per row, `sources` fair bits for x, the channel's flips
// for y, and one item per bit drawn uniformly from its class's pool, x's and y's items side by side
// ([B, sources * width]). Fresh batches (training, readings of an infinite run) draw from the training pools; a
// finite set's held-out rows from the held-out pools, so no held-out item is ever trained on.
#include <memory>

#include "class_pools.h"
#include "tasks/task_sampler.h"

namespace milab {

// One draw with what made it: the bits and, per bit, the index of the item in its part's pool.
struct ClassChannelRows {
  Batch batch;
  at::Tensor xBits, yBits;    // [B, sources] int64, 0 or 1
  at::Tensor xItems, yItems;  // [B, sources] int64, rows of pools.items[part]
};

class ClassChannelSampler final : public TaskSampler {
 public:
  ClassChannelSampler(std::shared_ptr<const ClassPools> pools, int sources, double crossover, c10::Device device);

  int dimX() const override { return int(sources_ * width_); }
  int dimY() const override { return dimX(); }
  Batch sampleJoint(int64_t n, at::Generator& gen) const override { return draw(n, PoolPart::Training, gen).batch; }
  Batch sampleTable(int64_t trainRows, int64_t heldOutRows, at::Generator& gen) const override;
  bool drawsHeldOutApart() const override { return true; }

  ClassChannelRows draw(int64_t n, PoolPart part, at::Generator& gen) const;

 private:
  std::shared_ptr<const ClassPools> pools_;
  at::Tensor items_[2];  // the pools' items on the device
  int sources_;
  double crossover_;
  int64_t width_;
};

}  // namespace milab
