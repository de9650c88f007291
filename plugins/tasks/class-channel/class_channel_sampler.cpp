#include "class_channel_sampler.h"

#include <ATen/ATen.h>

namespace milab {

ClassChannelSampler::ClassChannelSampler(std::shared_ptr<const ClassPools> pools, int sources, double crossover,
                                         c10::Device device)
    : TaskSampler(device), pools_(std::move(pools)), sources_(sources), crossover_(crossover) {
  for (int part = 0; part < 2; ++part) items_[part] = pools_->items[part].to(device);
  width_ = pools_->width();
}

ClassChannelRows ClassChannelSampler::draw(int64_t n, PoolPart part, at::Generator& gen) const {
  const auto options = at::TensorOptions().dtype(at::kDouble).device(device());
  const at::Tensor xBits = (at::rand({n, sources_}, gen, options) < 0.5).to(at::kLong);
  const at::Tensor flips = (at::rand({n, sources_}, gen, options) < crossover_).to(at::kLong);
  const at::Tensor yBits = at::bitwise_xor(xBits, flips);
  const int p = int(part);
  const double first = double(pools_->sizes[p][0]), second = double(pools_->sizes[p][1]);
  // An item of each bit's class, uniformly: class 0's items are the pool's first `first` rows, class 1's the rest.
  const auto itemsOf = [&](const at::Tensor& bits) {
    const at::Tensor size = bits.to(at::kDouble) * (second - first) + first;
    const at::Tensor within = at::floor(at::rand({n, sources_}, gen, options) * size).clamp_max(size - 1);
    return (within + bits.to(at::kDouble) * first).to(at::kLong);
  };
  const at::Tensor xItems = itemsOf(xBits), yItems = itemsOf(yBits);
  const auto rowsOf = [&](const at::Tensor& index) {
    return items_[p].index_select(0, index.flatten()).reshape({n, sources_ * width_});
  };
  return {{rowsOf(xItems), at::Tensor(), rowsOf(yItems)}, xBits, yBits, xItems, yItems};
}

Batch ClassChannelSampler::sampleTable(int64_t trainRows, int64_t heldOutRows, at::Generator& gen) const {
  const Batch train = draw(trainRows, PoolPart::Training, gen).batch;
  const Batch heldOut = draw(heldOutRows, PoolPart::HeldOut, gen).batch;
  return {at::cat({train.x, heldOut.x}), at::Tensor(), at::cat({train.y, heldOut.y})};
}

}  // namespace milab
