#include "demi/decomposed_options.h"

namespace milab {

ParamSpec protocolParamSpec() {
  return ParamSpec::choice("protocol", {"conditional", "marginal"},
                           DecomposedOptions{}.marginalProtocol ? "marginal" : "conditional",
                           "evaluation (DEMI Fig. 2): conditional = I_NCE + I_CNCE with true p(y|x') "
                           "negatives, K/2 each; marginal = I_NCE + I_IS over one shared set of K");
}

ParamSpec sirPoolParamSpec() {
  return ParamSpec::integer("M", DecomposedOptions::kSirPoolDefault, 2, 1 << 20,
                            "marginal samples per step from which each row resamples its negatives");
}

DecomposedOptions DecomposedOptions::from(const ParamMap& params) {
  DecomposedOptions o;
  o.critic = CriticOptions::from(params);
  o.marginalProtocol = params.value("protocol").toString() == "marginal";
  o.sirPool = params.value("M").toInt();
  return o;
}

}  // namespace milab
