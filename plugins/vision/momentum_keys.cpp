// The key networks built as copies of the online ones, and the y side's forward pass without a gradient.
#include "momentum_keys.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>

namespace milab {

MomentumKeys::MomentumKeys(int64_t channels, int64_t width, int64_t capacity, ConvEncoder& encoder, Mlp& head,
                           at::Generator& gen, c10::Device device)
    : queue_(capacity, width, device) {
  at::Generator spare = gen.clone();
  const int64_t r = encoder->outputs();
  keyEncoder_ = ConvEncoder(channels, spare);
  keyHead_ = Mlp(r, r, width, spare);
  keyEncoder_->to(device);
  keyHead_->to(device);
  const auto append = [](std::vector<at::Tensor>& to, const std::vector<at::Tensor>& more) {
    to.insert(to.end(), more.begin(), more.end());
  };
  for (const auto& [keys, online] :
       {std::pair{keyEncoder_->parameters(), encoder->parameters()},
        std::pair{keyEncoder_->buffers(), encoder->buffers()}, std::pair{keyHead_->parameters(), head->parameters()}}) {
    append(keyTensors_, keys);
    append(onlineTensors_, online);
  }
  torch::NoGradGuard noGrad;
  for (size_t i = 0; i < keyTensors_.size(); ++i) {
    keyTensors_[i].copy_(onlineTensors_[i]);
    keyTensors_[i].set_requires_grad(false);
  }
}

at::Tensor MomentumKeys::keysOf(const at::Tensor& images) {
  torch::NoGradGuard noGrad;
  return keyHead_(keyEncoder_(images));
}

at::Tensor MomentumKeys::withQueue(const at::Tensor& own) const { return at::cat({own, queue_.keys()}); }

void MomentumKeys::train(bool on) {
  keyEncoder_->train(on);
  keyHead_->train(on);
}

}  // namespace milab
