#pragma once
// Where a diffusion estimator looks along the noise, and how it weighs what it sees there: its noise schedule. Both
// estimators read MI as an integral over log-SNR g of a gap between two denoisers' guesses; they differ in how g is
// drawn (mmg: a truncated logistic over g, log_snr_draws.h; minde-c: MINDE's VP-SDE times, vp_sde.h), in each
// draw's weight, and in the noise level the network is told. Torch header: include it only from torch translation
// units.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

namespace milab {

struct NoiseDraws {
  at::Tensor g;       // [n] log-SNR
  at::Tensor weight;  // [n] mean(weight * f(g)) over the draws estimates the integral of f over the schedule
  at::Tensor level;   // [n] the noise level as the network reads it (denoiser.h)
};

class NoiseSchedule {
 public:
  virtual ~NoiseSchedule() = default;
  // n draws in `options`' dtype and device (uniforms from `gen`, where it lives).
  virtual NoiseDraws draw(int64_t n, at::Generator& gen, const at::TensorOptions& options) const = 0;
  // The g range the draws cover (below `lowestLogSnr` nothing; the VP-SDE's sliver near t = 0 lies above
  // `highestLogSnr`): the oracle's exact integral is taken between them.
  virtual double lowestLogSnr() const = 0;
  virtual double highestLogSnr() const = 0;
};

}  // namespace milab
