#include "method/density_options.h"

namespace milab {

ParamSpecs densityModelParamSpecs(const QString& oracleMeaning) {
  const DensityOptions d;
  return {
      ParamSpec::integer("batch", d.batch, 2, 65536, "joint samples per training step and per evaluation batch"),
      ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate", true, false),
      ParamSpec::integer("hidden", d.hidden, 1, 4096, "hidden ReLU units of the MLP of q(y|x)"),
      // `critic` like the contrastive methods' key, so that a comparison's oracle overlay covers these too.
      ParamSpec::choice("critic", {"learned", "oracle"}, d.oracle ? "oracle" : "learned",
                        "learned: train q by maximum likelihood; oracle: " + oracleMeaning),
  };
}

DensityOptions DensityOptions::from(const ParamMap& params) {
  DensityOptions o;
  o.batch = params.value("batch").toInt();
  o.lr = params.value("lr").toDouble();
  o.hidden = params.value("hidden").toInt();
  o.oracle = params.value("critic").toString() == "oracle";
  return o;
}

}  // namespace milab
