// MINDE's VP-SDE schedule and its importance draws of time (vp_sde.h).
#include "vp_sde.h"

#include <ATen/ATen.h>

#include <cmath>

#include "reading_cap.h"
#include "tasks/on_device.h"

namespace milab {

double VpSchedule::logSnrAt(double t) const { return -std::log(std::expm1(integralBeta(t))); }

double VpSchedule::density(double t) const {
  return (betaMin + t * (betaMax - betaMin)) / -std::expm1(-integralBeta(t));
}

double VpSchedule::normalizer() const { return density(epsilon) * epsilon + logSnrAt(epsilon) - logSnrAt(1.0); }

double VpSchedule::capPerDirection() const {
  // The integral of e^(-B) over [0, eps] by Simpson's rule: B is a quadratic, small there, so 16 intervals are exact
  // to far below a reading's noise.
  constexpr int kIntervals = 16;
  double below = 0;
  for (int i = 0; i <= kIntervals; ++i)
    below += (i == 0 || i == kIntervals ? 1 : i % 2 ? 4 : 2) * std::exp(-integralBeta(epsilon * i / kIntervals));
  below *= epsilon / kIntervals / 3;
  return 0.5 * (softplusOf(logSnrAt(epsilon)) - softplusOf(logSnrAt(1.0)) + density(epsilon) * below);
}

VpTimeDraws drawVpTimes(int64_t n, const VpSchedule& schedule, at::Generator& gen, const at::TensorOptions& options) {
  const double z = schedule.normalizer(), rEps = schedule.density(schedule.epsilon);
  const double sliver = rEps * schedule.epsilon / z;  // q's mass on [0, eps], where q is flat
  const at::Tensor u = onDevice(at::empty({n}, options.device(gen.device())).uniform_(0, 1, gen), options.device());
  // Above the sliver q is uniform in g: g falls linearly in u from g(eps), and t solves B(t) = log(1 + e^(-g)).
  const at::Tensor gAbove = schedule.logSnrAt(schedule.epsilon) - z * (u - sliver);
  const double a = schedule.betaMax - schedule.betaMin, b = schedule.betaMin;
  const at::Tensor tAbove = ((b * b + 2 * a * at::softplus(-gAbove)).sqrt() - b) / a;
  const at::Tensor tBelow = u * (z / rEps);
  const at::Tensor bBelow = 0.5 * a * tBelow * tBelow + b * tBelow;
  const at::Tensor below = u <= sliver;
  return {at::where(below, tBelow, tAbove), at::where(below, -at::log(at::expm1(bBelow)), gAbove)};
}

NoiseDraws VpSdeTimes::draw(int64_t n, at::Generator& gen, const at::TensorOptions& options) const {
  const VpTimeDraws d = drawVpTimes(n, sde_, gen, options);
  return {d.g, at::full({n}, sde_.normalizer(), options), d.t};
}

}  // namespace milab
