#include "interpolated/interpolated_options.h"

namespace milab {

ParamSpecs InterpolatedOptions::extraSpecs() {
  // Poole et al.'s alpha, under its own key: "alpha" is gaussian3's split of the MI, and one flat experiment
  // cannot hold two alphas (summary.json would record one of them and a rerun would give another run).
  ParamSpec alpha = ParamSpec::real(
      "nce_weight", InterpolatedOptions{}.alpha, 0.0, 1.0,
      "I_alpha's alpha, the weight of the InfoNCE baseline: near 1 is InfoNCE-like, near 0 is TUBA-like", true, true);
  alpha.label = "I_alpha weight alpha";
  return {alpha};
}

InterpolatedOptions InterpolatedOptions::from(const ParamMap& params) {
  InterpolatedOptions o;
  o.critic = CriticOptions::from(params);
  o.alpha = params.value("nce_weight").toDouble();
  return o;
}

}  // namespace milab
