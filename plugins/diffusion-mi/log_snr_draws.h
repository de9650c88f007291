#pragma once
// Where a diffusion estimator looks along the noise: log-SNR values g drawn from a logistic(loc, scale) truncated to
// |g - loc| <= clip * scale, each with its importance weight 1 / q(g), so that mean(w(g) f(g)) estimates the
// integral of f over that range (MMG's and ITD's logistic_integrate; the reference defaults loc 2, scale 3,
// clip 4 cover g in [-10, 14] for standardised data). And the variance-preserving noising at g.
// Torch header: include it only from torch translation units.
#include "noise_schedule.h"

namespace milab {

struct LogSnrRange {
  double loc = 2, scale = 3, clip = 4;
  double lowest() const { return loc - clip * scale; }
  double highest() const { return loc + clip * scale; }
  // The most a reading over this range can give per standardised x direction: 1/2 the integral of the noise error
  // of a unit-variance Gaussian, sigmoid(g), which no other law of that variance exceeds, when y tells x exactly
  // (the error given y 0). 1/2 (softplus(highest) - softplus(lowest)): 7.00 nats at the defaults.
  double capPerDirection() const;
};

struct LogSnrDraws {
  at::Tensor g;       // [n]
  at::Tensor weight;  // [n], 1 / q(g) with q the truncated logistic's density
};

// n draws in `options`' dtype and device (uniforms from `gen`, where it lives).
LogSnrDraws drawLogSnr(int64_t n, const LogSnrRange& range, at::Generator& gen, const at::TensorOptions& options);

// mmg's schedule: these draws, the network told g / 10 (about [-1, 1.4] over the default range).
class LogisticLogSnr final : public NoiseSchedule {
 public:
  explicit LogisticLogSnr(const LogSnrRange& range) : range_(range) {}
  NoiseDraws draw(int64_t n, at::Generator& gen, const at::TensorOptions& options) const override;
  double lowestLogSnr() const override { return range_.lowest(); }
  double highestLogSnr() const override { return range_.highest(); }

 private:
  LogSnrRange range_;
};

// z_g = sqrt(sigmoid(g)) x + sqrt(sigmoid(-g)) noise, row by row (g [n], x and noise [n, d]): SNR e^g, unit
// variance kept for unit-variance x.
at::Tensor noisedAt(const at::Tensor& x, const at::Tensor& g, const at::Tensor& noise);

}  // namespace milab
