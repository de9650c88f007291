#include "markov/enumeration.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

#include "markov/markov_code.h"

namespace milab::markov {

at::Tensor allCodes(int64_t m, const at::Device& device) {
  if (m > kMaxEnumeratedBits) throw std::invalid_argument("allCodes: m above the enumeration limit");
  const auto longs = at::TensorOptions().dtype(at::kLong).device(device);
  const at::Tensor c = at::arange(int64_t{1} << m, longs).unsqueeze(1);
  const at::Tensor powers = at::pow(at::full({m}, 2, longs), at::arange(m, longs));
  return c.div(powers, "floor").remainder(2);
}

at::Tensor logProbOfCodes(const at::Tensor& logits, const at::Tensor& codes) {
  const int64_t m = codes.size(1), order = orderOf(logits);
  // History of each position: h_i = sum_j z_{i-j} 2^{j-1}, with z = 0 before position 1.
  at::Tensor history = at::zeros_like(codes);
  for (int64_t j = 1; j <= order && j < m; ++j)
    history.narrow(1, j, m - j).add_(codes.narrow(1, 0, m - j) * (int64_t{1} << (j - 1)));
  // logits[b, i, history[c, i]] -> [B, C, m]
  const int64_t B = logits.size(0), C = codes.size(0);
  const at::Tensor index = history.t().unsqueeze(0).expand({B, m, C});  // [B, m, C]
  const at::Tensor chosen = logits.gather(2, index).transpose(1, 2);       // [B, C, m]
  const at::Tensor z = codes.unsqueeze(0).to(logits.scalar_type());
  return (z * at::log_sigmoid(chosen) + (1 - z) * at::log_sigmoid(-chosen)).sum(2);
}

at::Tensor aggregateEntropy(const at::Tensor& logits) {
  const at::Tensor logP = logProbOfCodes(logits, allCodes(logits.size(1), logits.device()));  // [B, C]
  const at::Tensor logMix = at::logsumexp(logP, 0) - std::log(double(logits.size(0)));       // [C]
  return -(logMix.exp() * logMix).sum();
}

}  // namespace milab::markov
