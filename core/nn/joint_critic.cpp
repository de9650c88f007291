#include "nn/joint_critic.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "nn/bounds.h"
#include "nn/descent.h"
#include "nn/flat_adam.h"

namespace milab {

namespace {

// PyTorch's default Linear init, U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weight [out, in] and bias, from `gen`.
std::pair<at::Tensor, at::Tensor> linear(int64_t in, int64_t out, c10::Device device, at::Generator& gen) {
  c10::NoGradGuard noGrad;
  const double bound = 1.0 / std::sqrt(double(in));
  at::Tensor w = at::empty({out, in}, at::kFloat).uniform_(-bound, bound, gen);
  at::Tensor b = at::empty({out}, at::kFloat).uniform_(-bound, bound, gen);
  return {w.to(device).requires_grad_(), b.to(device).requires_grad_()};
}

}  // namespace

JointCritic::JointCritic(int64_t xDim, int64_t yDim, const QList<int>& layers, double lr, c10::Device device,
                         at::Generator& gen) {
  // The first layer is one Linear(xDim + yDim, layers[0]) as bmi initialises it, then split into its x and y parts.
  auto [w1, b1] = linear(xDim + yDim, layers.first(), device, gen);
  {
    c10::NoGradGuard noGrad;
    wx_ = w1.narrow(1, 0, xDim).clone().requires_grad_();
    wy_ = w1.narrow(1, xDim, yDim).clone().requires_grad_();
  }
  b1_ = b1;
  std::vector<at::Tensor> all{wx_, wy_, b1_};
  for (int i = 0; i < layers.size(); ++i) {
    auto [w, b] = linear(layers[i], i + 1 < layers.size() ? layers[i + 1] : 1, device, gen);
    weights_.push_back(w);
    biases_.push_back(b);
    all.push_back(w);
    all.push_back(b);
  }
  adam_ = std::make_unique<FlatAdam>(all, lr);
  // FlatAdam made each tensor a view of its flat buffer (set_data): the members still name the same tensors.
}

JointCritic::~JointCritic() = default;

at::Tensor JointCritic::rest(at::Tensor hidden) const {
  for (size_t i = 0; i < weights_.size(); ++i) hidden = at::linear(hidden.relu(), weights_[i], biases_[i]);
  return hidden.squeeze(-1);
}

at::Tensor JointCritic::scores(const at::Tensor& xs, const at::Tensor& ys) {
  if (!c10::GradMode::is_enabled() && JointCpuPass::takes(parameters(), xs, ys))
    return JointCpuPass::scores(parameters(), xs, ys);
  const at::Tensor fromX = at::linear(xs, wx_, b1_);  // [B, H]
  const at::Tensor fromY = at::linear(ys, wy_);       // [M, H]
  // Read without gradients (a whole held-out half: 2,500 x 2,500 pairs at N = 5,000), the pairs' activations go in
  // blocks of rows so that the peak stays near kBlockActivations floats whatever B x M is.
  constexpr int64_t kBlockActivations = int64_t(1) << 24;
  const int64_t rowsPerBlock = std::max<int64_t>(1, kBlockActivations / std::max<int64_t>(1, ys.size(0) * b1_.size(0)));
  if (c10::GradMode::is_enabled() || rowsPerBlock >= xs.size(0)) return rest(fromX.unsqueeze(1) + fromY.unsqueeze(0));
  std::vector<at::Tensor> blocks;
  for (int64_t start = 0; start < xs.size(0); start += rowsPerBlock)
    blocks.push_back(
        rest(fromX.narrow(0, start, std::min(rowsPerBlock, xs.size(0) - start)).unsqueeze(1) + fromY.unsqueeze(0)));
  return at::cat(blocks, 0);
}

at::Tensor JointCritic::pairScores(const at::Tensor& xs, const at::Tensor& ys) {
  return rest(at::linear(xs, wx_, b1_) + at::linear(ys, wy_));
}

at::Tensor JointCritic::inBatchNce(const at::Tensor& xs, const at::Tensor& ys) {
  c10::NoGradGuard noGraph;
  if (xs.size(0) == ys.size(0) && JointCpuPass::takes(parameters(), xs, ys))
    return at::scalar_tensor(JointCpuPass::inBatchNce(parameters(), xs, ys), xs.options());
  return milab::inBatchNce(scores(xs, ys));
}

const std::vector<at::Tensor>& JointCritic::parameters() const { return adam_->parameters(); }

void JointCritic::minimise(const at::Tensor& loss) { descend(*adam_, loss); }

}  // namespace milab
