#include "key_queue.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <algorithm>

namespace milab {

KeyQueue::KeyQueue(int64_t capacity, int64_t width, c10::Device device)
    : ring_(at::zeros({capacity, width}, at::TensorOptions().device(device))) {}

void KeyQueue::push(const at::Tensor& keys) {
  c10::NoGradGuard noGrad;
  const int64_t capacity = ring_.size(0), n = std::min(keys.size(0), capacity);
  const at::Tensor newest = keys.narrow(0, keys.size(0) - n, n);
  // The ring's slots from next_ on, wrapping once at most: two copies of contiguous rows on the device, with no
  // index tensor to build on the host and send each step (a host-to-device copy on a GPU).
  const int64_t first = std::min(n, capacity - next_);
  ring_.narrow(0, next_, first).copy_(newest.narrow(0, 0, first));
  if (n > first) ring_.narrow(0, 0, n - first).copy_(newest.narrow(0, first, n - first));
  next_ = (next_ + n) % capacity;
  filled_ = std::min(capacity, filled_ + n);
}

void momentumUpdate(const std::vector<at::Tensor>& keys, const std::vector<at::Tensor>& online, double momentum) {
  c10::NoGradGuard noGrad;
  for (size_t i = 0; i < keys.size(); ++i) {
    at::Tensor key = keys[i];
    if (key.is_floating_point())
      key.mul_(momentum).add_(online[i], 1.0 - momentum);
    else
      key.copy_(online[i]);
  }
}

}  // namespace milab
