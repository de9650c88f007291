// InBatchNceBackward (nn/in_batch_nce_backward.h).
#include "nn/in_batch_nce_backward.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>

#include "nn/fusable.h"
#include "nn/softmax_rows.h"

namespace milab {

ScoresBackward InBatchNceBackward::operator()(const at::Tensor& scores) {
  c10::NoGradGuard noGraph;
  const int64_t k = scores.size(0);
  if (fusable(scores) && scores.size(1) == k) {  // CPU floats: one pass per row (nn/softmax_rows)
    if (!rowsGradient_.defined() || rowsGradient_.size(0) != k) rowsGradient_ = at::empty_like(scores);
    const double sum = inBatchNceRows(scores.data_ptr<float>(), k, rowsGradient_.data_ptr<float>());
    return {at::scalar_tensor(sum / static_cast<double>(k) + std::log(static_cast<double>(k)), scores.options()),
            rowsGradient_};
  }
  const at::Tensor logSoftmax = at::log_softmax(scores, 1);
  // d(-objective)/d(logSoftmax): zeros with -1/K on the diagonal, as NegBackward, MeanBackward (grad expanded,
  // divided by numel) and DiagonalBackward (zeros, the diagonal copied in) build it. The same every step for one K.
  if (!diagonalSeed_.defined() || diagonalSeed_.size(0) != k || diagonalSeed_.device() != scores.device() ||
      diagonalSeed_.scalar_type() != scores.scalar_type()) {
    const at::Tensor perRow = at::ones({}, scores.options()).neg().expand({k}) / k;
    diagonalSeed_ = at::zeros({k, k}, scores.options());
    diagonalSeed_.diagonal().copy_(perRow);
  }
  return {logSoftmax.diagonal().mean() + std::log(static_cast<double>(k)),  // inBatchNce
          at::_log_softmax_backward_data(diagonalSeed_, logSoftmax, 1, scores.scalar_type())};
}

}  // namespace milab
