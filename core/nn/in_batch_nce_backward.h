#pragma once
// InfoNCE's value and its gradient at the scores in closed form, for the critics whose backward is written out
// (SeparableCritic::trainInBatchNce, and the joint critic through ScoreMatrixEstimator): on CPU floats one pass per
// row (nn/softmax_rows), elsewhere the log-softmax and its backward as autograd calls them. Torch header.
#include "nn/scores_objective.h"

namespace milab {

class InBatchNceBackward {
 public:
  // inBatchNce(scores) and the gradient of its negative at the square `scores`, without a graph; on CPU floats
  // the gradient is a buffer of this object, valid until the next call.
  ScoresBackward operator()(const at::Tensor& scores);

 private:
  at::Tensor diagonalSeed_;  // the constant gradient at the log-softmax, for the last K
  at::Tensor rowsGradient_;  // the gradient on CPU floats, kept from step to step
};

}  // namespace milab
