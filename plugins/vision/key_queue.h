#pragma once
// MoCo's two mechanisms (He et al. 2020, as InfoMin trains): a fixed-size ring of earlier batches' keys, the extra
// negatives every row is scored against, and the momentum average that moves the key encoder toward the online one.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <vector>

namespace milab {

class KeyQueue {
 public:
  KeyQueue(int64_t capacity, int64_t width, c10::Device device);
  // The keys held, [size(), width] (slot order: which is oldest does not matter to a bound).
  at::Tensor keys() const { return ring_.narrow(0, 0, filled_); }
  int64_t size() const { return filled_; }
  // Adds a batch's keys [n, width], replacing the oldest once full; of a batch larger than the ring, its last rows.
  void push(const at::Tensor& keys);

 private:
  at::Tensor ring_;
  int64_t filled_ = 0, next_ = 0;
};

// key = momentum * key + (1 - momentum) * online for each floating pair (in place, no gradient); integer buffers
// (batch norm's step count) are copied.
void momentumUpdate(const std::vector<at::Tensor>& keys, const std::vector<at::Tensor>& online, double momentum);

}  // namespace milab
