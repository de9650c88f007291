#include "nn/bounds.h"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>

namespace milab {

at::Tensor inBatchNce(const at::Tensor& scores) {
  return at::log_softmax(scores, 1).diagonal().mean() + std::log(static_cast<double>(scores.size(1)));
}

at::Tensor firstColumnNce(const at::Tensor& scores) {
  return at::log_softmax(scores, 1).select(1, 0).mean() + std::log(static_cast<double>(scores.size(1)));
}

at::Tensor logMeanExpOffDiagonal(const at::Tensor& scores) {
  const int64_t n = scores.size(0);
  const at::Tensor mask = at::eye(n, scores.options().dtype(at::kBool));
  const at::Tensor offDiagonal = scores.masked_fill(mask, -std::numeric_limits<double>::infinity());
  return at::logsumexp(offDiagonal.flatten(), 0) - std::log(static_cast<double>(n * (n - 1)));
}

at::Tensor tubaBound(const at::Tensor& scores) {
  return 1.0 + scores.diagonal().mean() - logMeanExpOffDiagonal(scores).exp();
}

at::Tensor nwjBound(const at::Tensor& scores) { return tubaBound(scores - 1.0); }

at::Tensor dvBound(const at::Tensor& scores) { return scores.diagonal().mean() - logMeanExpOffDiagonal(scores); }

at::Tensor jsObjective(const at::Tensor& scores) {
  const int64_t n = scores.size(0);
  const at::Tensor diagonal = scores.diagonal();
  const at::Tensor joint = -at::softplus(-diagonal).mean();
  const at::Tensor marginal = (at::softplus(scores).sum() - at::softplus(diagonal).sum()) / double(n * (n - 1));
  return joint - marginal;
}

at::Tensor valueOfWithGradientOf(const at::Tensor& value, const at::Tensor& gradient) {
  return gradient + (value - gradient).detach();
}

}  // namespace milab
