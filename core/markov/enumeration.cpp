#include "markov/enumeration.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include <stdexcept>

#include "markov/markov_code.h"
#include "method/estimator.h"

namespace milab::markov {

namespace {
// Above this many (position, history) columns the one-hot visits table [C, 2 m 2^o] outgrows the gathers.
constexpr int64_t kMaxMatmulColumns = 256;
}  // namespace

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
  // log p(z_i | h) = log sigmoid(-l_ih) + z_i l_ih. With few (position, history) pairs, log p(z) is one matrix
  // product: the logits' [log sigmoid(-l), l] [B, 2 m 2^o] times each code's visits to the pairs and its visits
  // with z_i = 1 [2 m 2^o, C]. BMMI's order 0 is 2m columns.
  if (2 * m * logits.size(2) <= kMaxMatmulColumns) {
    // One-hot by comparison: at::one_hot checks its input's range with two host reads on the CPU.
    const at::Tensor visits =
        history.unsqueeze(2).eq(at::arange(logits.size(2), history.options())).to(logits.scalar_type());  // [C, m, 2^o]
    const at::Tensor visitsWithOne = visits * codes.unsqueeze(2).to(logits.scalar_type());
    const at::Tensor features = at::cat({visits.flatten(1), visitsWithOne.flatten(1)}, 1);  // [C, 2 m 2^o]
    const at::Tensor weights = at::cat({at::log_sigmoid(-logits).flatten(1), logits.flatten(1)}, 1);
    return at::matmul(weights, features.t());
  }
  // Otherwise sum_i log p(z_i | history_i) one position at a time: memory B x C, not B x C x m.
  const at::Tensor logOne = at::log_sigmoid(logits), logZero = at::log_sigmoid(-logits);  // [B, m, 2^o]
  at::Tensor total;
  for (int64_t i = 0; i < m; ++i) {
    const at::Tensor h = history.select(1, i), z = codes.select(1, i).eq(1);
    const at::Tensor term =
        at::where(z, logOne.select(1, i).index_select(1, h), logZero.select(1, i).index_select(1, h));
    total = i == 0 ? term : total + term;
  }
  return total;  // [B, C]
}

at::Tensor aggregateEntropy(const at::Tensor& logits, const std::function<bool()>& cancelled) {
  // With a cancel to poll, a slice's table [B, codes] holds about 2^18 log-probabilities: a few milliseconds of work
  // between polls. Without one, one slice holds every code.
  constexpr int64_t kEntriesPerSlice = int64_t{1} << 18;
  const at::Tensor codes = allCodes(logits.size(1), logits.device());
  const int64_t total = codes.size(0);
  const int64_t perSlice = cancelled ? std::max<int64_t>(1, kEntriesPerSlice / logits.size(0)) : total;
  const double logBatch = std::log(double(logits.size(0)));
  std::vector<at::Tensor> logMix;  // [C] in slices: logsumexp over the batch is taken per code, so slicing the
                                   // codes leaves every value as the whole table gives it
  for (int64_t first = 0; first < total; first += perSlice) {
    if (cancelled && cancelled()) throw EstimatorCancelled();
    const at::Tensor logP = logProbOfCodes(logits, codes.narrow(0, first, std::min(perSlice, total - first)));
    logMix.push_back(at::logsumexp(logP, 0) - logBatch);
  }
  const at::Tensor all = logMix.size() == 1 ? logMix.front() : at::cat(logMix);
  return -(all.exp() * all).sum();
}

}  // namespace milab::markov
