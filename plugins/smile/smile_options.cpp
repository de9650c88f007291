#include "smile/smile_options.h"

namespace milab {

ParamSpecs SmileOptions::extraSpecs() {
  return {
      ParamSpec::real("tau", SmileOptions{}.tau, 0.0, 100.0, "clip of the scores in the partition term", true, false)};
}

SmileOptions SmileOptions::from(const ParamMap& params) {
  SmileOptions o;
  o.critic = CriticOptions::from(params);
  o.tau = params.value("tau").toDouble();
  return o;
}

}  // namespace milab
