// Truncated logistic draws over log-SNR and the VP noising (log_snr_draws.h).
#include "log_snr_draws.h"

#include <ATen/ATen.h>

#include <cmath>

#include "reading_cap.h"
#include "tasks/on_device.h"

namespace milab {

double LogSnrRange::capPerDirection() const {
  return 0.5 * (softplusOf(highest()) - softplusOf(lowest()));
}

LogSnrDraws drawLogSnr(int64_t n, const LogSnrRange& range, at::Generator& gen, const at::TensorOptions& options) {
  // u ~ U[sigmoid(-clip), sigmoid(clip)], g = loc + scale logit(u): the logistic's quantiles inside the clip. Its
  // density there is sigmoid(v) sigmoid(-v) / (scale (sigmoid(clip) - sigmoid(-clip))) with v = (g - loc) / scale,
  // and sigmoid(clip) - sigmoid(-clip) = tanh(clip / 2).
  const double low = 1.0 / (1.0 + std::exp(range.clip)), high = 1.0 - low;
  const at::Tensor u =
      onDevice(at::empty({n}, options.device(gen.device())).uniform_(low, high, gen), options.device());
  const at::Tensor v = at::logit(u);
  const at::Tensor g = range.loc + range.scale * v;
  const at::Tensor weight = range.scale * std::tanh(range.clip / 2) / (at::sigmoid(v) * at::sigmoid(-v));
  return {g, weight};
}

NoiseDraws LogisticLogSnr::draw(int64_t n, at::Generator& gen, const at::TensorOptions& options) const {
  const LogSnrDraws d = drawLogSnr(n, range_, gen, options);
  return {d.g, d.weight, d.g / 10.0};
}

at::Tensor noisedAt(const at::Tensor& x, const at::Tensor& g, const at::Tensor& noise) {
  const at::Tensor column = g.unsqueeze(1);
  return at::sigmoid(column).sqrt() * x + at::sigmoid(-column).sqrt() * noise;
}

}  // namespace milab
