#pragma once
// Samples of a Beyond-Normal task (beyond_normal.h), drawn with the caller's generator: the same generator state
// gives the same samples. Float64 on the CPU (bmi's own precision); a run moves them where it trains.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include "beyond_normal.h"

namespace milab::beyond_normal {

struct Samples {
  at::Tensor x;  // [n, sampledDimX()]
  at::Tensor y;  // [n, sampledDimY()]
};

Samples sampleTask(const TaskDefinition& task, int64_t n, at::Generator& gen);

// The lower Cholesky factor of a covariance; empty when it is not positive definite.
Eigen::MatrixXd lowerCholesky(const Eigen::MatrixXd& covariance);

// One transform applied to x and to y (exposed for the tests' invariance checks).
Samples applyTransform(Transform transform, const Samples& in);

}  // namespace milab::beyond_normal
