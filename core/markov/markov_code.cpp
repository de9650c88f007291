#include "markov/markov_code.h"

#include <ATen/ATen.h>

#include <stdexcept>

#include "method/estimator.h"

namespace milab::markov {

namespace {

// For each history h' at position i+1, the two histories h at position i it can come from, and the bit z_i it
// appends: h' = ((h << 1) | z_i) mod 2^o, so z_i = h' & 1 and h = (h' >> 1) | (b << (o-1)), b in {0, 1}.
struct Transitions {
  at::Tensor from0, from1, bit;  // [2^o] int64 each
};

Transitions transitions(int64_t order, const at::Device& device) {
  const int64_t states = int64_t{1} << order;
  const at::Tensor h = at::arange(states, at::TensorOptions().dtype(at::kLong).device(device));
  if (order == 0) return {h, h, at::zeros_like(h)};  // unused: callers handle order 0 first
  const at::Tensor shifted = h.div(2, "floor");
  return {shifted, shifted + (int64_t{1} << (order - 1)), h.remainder(2)};
}

}  // namespace

int64_t orderOf(const at::Tensor& logits) {
  const int64_t states = logits.size(2);
  int64_t order = 0;
  while ((int64_t{1} << order) < states) ++order;
  if ((int64_t{1} << order) != states) throw std::invalid_argument("Markov logits: last dimension must be 2^order");
  return order;
}

at::Tensor liftOrder(const at::Tensor& logits, int64_t order) {
  const int64_t own = orderOf(logits);
  if (order < own) throw std::invalid_argument("liftOrder: cannot lower a Markov order");
  if (order == own) return logits;
  // The newest `own` bits of a longer history are its low bits.
  const at::Tensor h = at::arange(int64_t{1} << order, at::TensorOptions().dtype(at::kLong).device(logits.device()));
  return logits.index_select(2, h.remainder(int64_t{1} << own));
}

at::Tensor historyMarginals(const at::Tensor& logits, const std::function<bool()>& cancelled) {
  const int64_t B = logits.size(0), m = logits.size(1), order = orderOf(logits), states = logits.size(2);
  // Order 0 has one (empty) history, which every position sees with probability 1.
  if (order == 0) return at::ones({B, m, 1}, logits.options());
  // P(z_i = 1 | i, h), P(z_i = 0 | i, h), one [B, 2^o] slice per position. Unbound once: the backward of m
  // separate select(1, i) calls allocates m zero-filled [B, m, 2^o] gradients (quadratic in m; at m = 128,
  // order 11 a training step took minutes, nearly all of it zeroing), while unbind's is one stack.
  const std::vector<at::Tensor> p1 = at::sigmoid(logits).unbind(1), p0 = at::sigmoid(-logits).unbind(1);
  std::vector<at::Tensor> pis;
  pis.reserve(m);
  at::Tensor pi = at::zeros({B, states}, logits.options());
  pi.select(1, 0).fill_(1.0);  // before position 1 every bit is 0
  for (int64_t i = 0; i < m; ++i) {
    if (cancelled && cancelled()) throw EstimatorCancelled();
    pis.push_back(pi);
    if (i + 1 == m) break;
    // h = b 2^(o-1) + u (b its oldest bit) moves to h' = 2u + z_i. Viewing [B, 2^o] as [B, 2, 2^(o-1)] puts the
    // two predecessors of (u, z) on dimension 1: a sum there, no gathers.
    const at::Tensor from = pi.view({B, 2, states / 2});
    const at::Tensor zero = (from * p0[i].view({B, 2, states / 2})).sum(1);  // P(u, z_i = 0)
    const at::Tensor one = (from * p1[i].view({B, 2, states / 2})).sum(1);
    pi = at::stack({zero, one}, 2).view({B, states});
  }
  return at::stack(pis, 1);
}

at::Tensor windowMarginals(const at::Tensor& logits, int64_t order, const std::function<bool()>& cancelled) {
  const at::Tensor lifted = liftOrder(logits, order);
  const at::Tensor pi = historyMarginals(lifted, cancelled);  // [B, m, 2^order]
  const at::Tensor p1 = at::sigmoid(lifted);
  // Window w = (h << 1) | z_i: newest bit 0.
  return at::stack({pi * (1 - p1), pi * p1}, 3).flatten(2);
}

at::Tensor crossEntropy(const at::Tensor& pLogits, const at::Tensor& qLogits, const std::function<bool()>& cancelled) {
  const int64_t order = orderOf(qLogits);
  if (orderOf(pLogits) > order) throw std::invalid_argument("crossEntropy: q's order must be >= p's");
  return crossEntropyOfWindows(windowMarginals(pLogits, order, cancelled), qLogits);
}

at::Tensor crossEntropyOfWindows(const at::Tensor& windows, const at::Tensor& qLogits) {
  if (windows.size(2) != 2 * qLogits.size(2))
    throw std::invalid_argument("crossEntropyOfWindows: windows must have q's order + 1 bits");
  // log q(z_i | h) for window (h << 1) | z_i.
  const at::Tensor logQ = at::stack({at::log_sigmoid(-qLogits), at::log_sigmoid(qLogits)}, 3).flatten(2);
  return -(windows * logQ).sum({1, 2});
}

at::Tensor entropy(const at::Tensor& logits) { return crossEntropy(logits, logits); }

Decoded viterbi(const at::Tensor& logits) {
  // Order 0 written as order 1: the states then carry the decoded bit.
  if (orderOf(logits) == 0) return viterbi(liftOrder(logits, 1));
  const int64_t B = logits.size(0), m = logits.size(1), order = orderOf(logits), states = logits.size(2);
  const Transitions t = transitions(order, logits.device());
  const at::Tensor logP1 = at::log_sigmoid(logits), logP0 = at::log_sigmoid(-logits);
  const double kImpossible = -1e300;
  at::Tensor score = at::full({B, states}, kImpossible, logits.options().dtype(at::kDouble));
  score.select(1, 0).fill_(0.0);
  std::vector<at::Tensor> back;  // back[i][b][h'] = predecessor h of h' after position i
  for (int64_t i = 0; i < m; ++i) {
    const at::Tensor l1 = logP1.select(1, i).to(at::kDouble), l0 = logP0.select(1, i).to(at::kDouble);
    auto stepFrom = [&](const at::Tensor& from) {
      return score.index_select(1, from) + at::where(t.bit.eq(1), l1.index_select(1, from), l0.index_select(1, from));
    };
    const at::Tensor c0 = stepFrom(t.from0), c1 = stepFrom(t.from1);
    const at::Tensor take1 = c1 > c0;
    score = at::where(take1, c1, c0);
    back.push_back(at::where(take1, t.from1.expand_as(take1), t.from0.expand_as(take1)));
  }
  auto [best, state] = score.max(1);
  at::Tensor codes = at::zeros({B, m}, logits.options().dtype(at::kLong));
  for (int64_t i = m - 1; i >= 0; --i) {
    codes.select(1, i).copy_(t.bit.index_select(0, state));
    state = back[i].gather(1, state.unsqueeze(1)).squeeze(1);
  }
  return {codes, best.to(logits.scalar_type())};
}

}  // namespace milab::markov
