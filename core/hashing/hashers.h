#pragma once
// Two ways to hash an image y into m bits, both fitted on the training images only.
//   LshHasher:  random-projection LSH (sign random projections, Charikar 2002): z_i = [w_i . (y - mean) > 0],
//               w_i ~ N(0, I); the baseline of the AMMI paper's Table 1.
//   AmmiHasher: the AMMI paper's unsupervised hashing (eq. 5): an encoder p(z|y) of Markov order 0 (an MLP),
//               a prior q(z) of order r, and Algorithm 2 on H(Z|Y) - beta H+(Z); a code is argmax_z p(z|y).
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <memory>

namespace milab {

class LshHasher {
 public:
  LshHasher(const at::Tensor& trainImages, int64_t bits, at::Generator& gen);
  at::Tensor codes(const at::Tensor& images) const;  // [N, m] int64 0/1

 private:
  at::Tensor mean_, projection_;  // [D], [D, m]
};

struct AmmiHashSettings {
  int64_t bits = 16, orderPrior = 3, priorSteps = 4, hidden = 256, batch = 128;
  double priorLr = 0.01, beta = 2.0, lr = 0.001, clip = 10.0;
};

class AmmiHasher {
 public:
  AmmiHasher(const AmmiHashSettings& settings, int64_t inputDim, at::Generator& gen, c10::Device device);
  ~AmmiHasher();
  // One step of Algorithm 2 on a batch of images [B, D]; returns the estimate H+(Z) - H(Z|Y) in nats, left on the
  // device (one element): the caller reads many steps' at once.
  at::Tensor trainStep(const at::Tensor& images);
  at::Tensor codes(const at::Tensor& images);  // [N, m] int64 0/1, argmax_z p(z|y)

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace milab
