#pragma once
// Batches of Markov-order-o distributions over binary codes z in {0,1}^m (AMMI paper, sec. 3.1): for every
// position i and every history of the o previous bits, the log-odds of z_i = 1. Tensors: logits [B, m, 2^o],
// history index h = sum_j z_{i-j} 2^{j-1} (z_{i-1} is bit 0); bits before position 1 are 0. Every function
// runs in O(m 2^order) on any device and is differentiable where it returns a loss.
#include <ATen/core/Tensor.h>

#include <functional>

namespace milab::markov {

int64_t orderOf(const at::Tensor& logits);  // log2 of the last dimension

// The same distribution written with `order` >= its own order: the older bits are ignored.
at::Tensor liftOrder(const at::Tensor& logits, int64_t order);

// Algorithm 3 (Forward): pi [B, m, 2^o], pi[b][i][h] = P(the o bits before position i+1 are h). With `cancelled`,
// polled before each position (at m = 128 and a high order a pass takes seconds), it throws EstimatorCancelled.
at::Tensor historyMarginals(const at::Tensor& logits, const std::function<bool()>& cancelled = {});

// mu [B, m, 2^(order+1)]: the probability of each window z_{i-order..i}, the newest bit z_i being bit 0.
at::Tensor windowMarginals(const at::Tensor& logits, int64_t order, const std::function<bool()>& cancelled = {});

// Algorithm 1: H(p, q) = -sum_z p(z) log q(z) [B] for p of order o and q of order o' >= o; q's batch may be 1
// (a prior shared by the batch).
at::Tensor crossEntropy(const at::Tensor& pLogits, const at::Tensor& qLogits,
                        const std::function<bool()>& cancelled = {});
// The same from p's windows mu = windowMarginals(p, o') [B, m, 2^(o'+1)]: -sum mu log q, [B]. It is linear in mu,
// so a batch sharing one prior may pass mean_b mu ([1, m, 2^(o'+1)]) and get the batch's mean cross entropy
// without running the dynamic program again for each new q.
at::Tensor crossEntropyOfWindows(const at::Tensor& windows, const at::Tensor& qLogits);

at::Tensor entropy(const at::Tensor& logits);  // H(p) = H(p, p), [B]

// argmax_z p(z) by Viterbi in O(m 2^o): codes [B, m] (0/1, int64) and their log-probabilities [B].
struct Decoded {
  at::Tensor codes, logProb;
};
Decoded viterbi(const at::Tensor& logits);

}  // namespace milab::markov
