#pragma once
// MoCo's y side as one part of the vision estimator (He et al. 2020, as InfoMin trains; key_queue.h holds its two
// mechanisms): momentum copies of the online encoder and head that encode y without a gradient, and the queue of
// earlier batches' keys scored as extra negatives. Built from a copy of the run's generator, then set to the online
// weights, so that the online networks' draws (and every run without a queue) stay as they are.
#include <ATen/core/Generator.h>
#include <c10/core/Device.h>

#include <memory>
#include <vector>

#include "conv_encoder.h"
#include "key_queue.h"
#include "nn/mlp.h"

namespace milab {

class MomentumKeys {
 public:
  // Copies of `encoder` and `head` (channels and widths as theirs) and a queue of `capacity` keys of `width`.
  MomentumKeys(int64_t channels, int64_t width, int64_t capacity, ConvEncoder& encoder, Mlp& head, at::Generator& gen,
               c10::Device device);

  // The key networks' step toward the online ones (their parameters and batch norm's running statistics).
  void follow(double momentum) { momentumUpdate(keyTensors_, onlineTensors_, momentum); }
  // The keys of a batch of y images [B, 1, S, S], without a gradient.
  at::Tensor keysOf(const at::Tensor& images);
  // A batch's own keys followed by the queue's: the joint pairs stay on the diagonal of the first B columns.
  at::Tensor withQueue(const at::Tensor& own) const;
  void push(const at::Tensor& keys) { queue_.push(keys); }
  void train(bool on);

 private:
  ConvEncoder keyEncoder_{nullptr};
  Mlp keyHead_{nullptr};
  KeyQueue queue_;
  // The key networks' parameters and buffers beside the online ones, in one order: gathered once, averaged each step.
  std::vector<at::Tensor> keyTensors_, onlineTensors_;
};

}  // namespace milab
