#pragma once
// Brute force over all 2^m codes, for small m: the reference the dynamic programs are tested against, and
// BMMI's exact entropy of the batch's aggregate posterior (AMMI paper eq. 2). Memory grows as B 2^m.
#include <ATen/core/Tensor.h>

#include <functional>

namespace milab::markov {

constexpr int kMaxEnumeratedBits = 16;
// Largest [samples, 2^m] table of log-probabilities the lab lets a user ask for (256 MB of floats).
constexpr int64_t kMaxEnumeratedEntries = int64_t{1} << 26;

at::Tensor allCodes(int64_t m, const at::Device& device);  // [2^m, m] int64, code c has z_i = bit i of c

// log p(z) [B, C] for each code row of `codes` [C, m] under Markov logits [B, m, 2^o].
at::Tensor logProbOfCodes(const at::Tensor& logits, const at::Tensor& codes);

// H(mean_b p(. | y_b)) in nats: the entropy of the batch's aggregate posterior, exactly. Differentiable. Given
// `cancelled`, the 2^m codes are read in slices of about 2^18 / B with a poll before each (throws
// EstimatorCancelled): at m = 16 and a large batch the whole table takes seconds. Slicing changes no value.
at::Tensor aggregateEntropy(const at::Tensor& logits, const std::function<bool()>& cancelled = {});

}  // namespace milab::markov
