#include "nn/every_pair_scores.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace milab {

int64_t everyPairBlockRows(int64_t n) {
  constexpr int64_t kBlockScores = int64_t(1) << 20;
  return std::max<int64_t>(1, kBlockScores / std::max<int64_t>(1, n));
}

EveryPairScores everyPairScores(int64_t n, const ScoreRows& rows, int64_t rowsPerBlock) {
  if (n < 2) throw std::invalid_argument("every pair: a held-out part of at least 2 rows is needed");
  rowsPerBlock = std::max<int64_t>(1, rowsPerBlock);
  double jointSum = 0;
  // log-sum-exp over the blocks: a running maximum and the sum of e^(s - maximum), rescaled when the maximum grows.
  double maximum = -std::numeric_limits<double>::infinity(), scaledSum = 0;
  for (int64_t first = 0; first < n; first += rowsPerBlock) {
    const int64_t count = std::min(rowsPerBlock, n - first);
    const at::Tensor block = rows(first, count).to(at::kDouble).contiguous();  // [count, n]
    // Row r of the block is x row first + r: its joint pair sits in column first + r.
    const at::Tensor joint = block.diagonal(first);
    jointSum += joint.sum().item<double>();
    const at::Tensor offDiagonal =
        block.diagonal_scatter(at::full({count}, -std::numeric_limits<double>::infinity(), block.options()), first);
    const double blockMax = offDiagonal.max().item<double>();
    if (!std::isfinite(blockMax)) {
      if (std::isnan(blockMax) || blockMax > 0) return {std::nan(""), std::nan("")};
      continue;  // every off-diagonal e^s of this block is 0
    }
    const double newMax = std::max(maximum, blockMax);
    scaledSum = scaledSum * std::exp(maximum - newMax) + (offDiagonal - newMax).exp().sum().item<double>();
    maximum = newMax;
  }
  const double pairs = double(n) * double(n - 1);
  return {jointSum / double(n), maximum + std::log(scaledSum) - std::log(pairs)};
}

double nwjOfEveryPair(const EveryPairScores& s) { return s.jointMean - std::exp(s.logMeanExpMarginal - 1.0); }

double dvOfEveryPair(const EveryPairScores& s) { return s.jointMean - s.logMeanExpMarginal; }

}  // namespace milab
