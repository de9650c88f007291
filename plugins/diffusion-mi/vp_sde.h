#pragma once
// MINDE's variance-preserving SDE and where it looks along it (MINDE, Franzese, Bounoua and Michiardi, ICLR 2024;
// MustaphaBounoua/minde, src/libs/SDE.py and importance.py, after Huang et al. 2021). beta(t) = beta_min +
// t (beta_max - beta_min) on [0, 1]; B(t) = integral of beta; x_t = e^(-B/2) x + sqrt(1 - e^(-B)) noise, which is
// the noising at log-SNR g(t) = -log(e^B - 1) (noisedAt in log_snr_draws.h). Times are drawn from the truncated
// density q(t) = r(max(t, eps)) / Z with r = beta / (1 - e^(-B)) = |dg/dt|: uniform in g between g(1) and g(eps),
// plus a sliver of mass r(eps) eps / Z on [0, eps]. The Girsanov integrand g(t)^2 |score difference|^2 is
// r(t) |noise-prediction difference|^2, so Z times its mean over these draws estimates the integral.
// Torch header: include it only from torch translation units.
#include "noise_schedule.h"

namespace milab {

struct VpSchedule {
  double betaMin = 0.1, betaMax = 20, epsilon = 1e-3;
  double integralBeta(double t) const { return 0.5 * t * t * (betaMax - betaMin) + t * betaMin; }
  double logSnrAt(double t) const;  // g(t) = -log(e^B(t) - 1)
  double density(double t) const;   // r(t) = beta(t) / (1 - e^(-B(t)))
  double normalizer() const;        // Z = r(eps) eps + g(eps) - g(1)
  // The most a reading can give per standardised x direction (as LogSnrRange::capPerDirection): 1/2 the integral
  // of r(max(t, eps)) sigmoid(g(t)) over [0, 1], where sigmoid(g(t)) = e^(-B(t)): 1/2 (softplus(g(eps)) -
  // softplus(g(1))) above eps and the sliver r(eps) times the integral of e^(-B) below it. 5.10 nats at the defaults.
  double capPerDirection() const;
};

struct VpTimeDraws {
  at::Tensor t;  // [n] in [0, 1]
  at::Tensor g;  // [n] the log-SNR at t (+inf at t = 0)
};

// n times from q in `options`' dtype and device (uniforms from `gen`, where it lives), by the inverse of q's CDF.
VpTimeDraws drawVpTimes(int64_t n, const VpSchedule& schedule, at::Generator& gen, const at::TensorOptions& options);

// minde-c's schedule: these times, each weighted Z (their density is the integrand's own r up to Z), the network
// told t.
class VpSdeTimes final : public NoiseSchedule {
 public:
  explicit VpSdeTimes(const VpSchedule& sde) : sde_(sde) {}
  NoiseDraws draw(int64_t n, at::Generator& gen, const at::TensorOptions& options) const override;
  double lowestLogSnr() const override { return sde_.logSnrAt(1.0); }
  double highestLogSnr() const override { return sde_.logSnrAt(sde_.epsilon); }

 private:
  VpSchedule sde_;
};

}  // namespace milab
