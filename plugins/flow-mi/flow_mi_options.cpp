#include "flow_mi_options.h"

namespace milab {

ParamSpecs flowMiParamSpecs() {
  return {
      ParamSpec::integer("batch", 256, 2, 65536, "joint samples per training step and per evaluation batch"),
      ParamSpec::real("lr", 1e-3, 0.0, 1.0, "Adam learning rate", true, false),
      ParamSpec::integer("depth", 4, 1, 64, "affine coupling layers of each flow (after one elementwise affine)"),
      ParamSpec::integer("width", 64, 1, 4096, "hidden ReLU units of each coupling layer's two-layer conditioner"),
  };
}

FlowMiOptions flowMiOptions(const ParamMap& params) {
  FlowMiOptions o;
  o.batch = params.value("batch").toInt();
  o.lr = params.value("lr").toDouble();
  o.depth = params.value("depth").toInt();
  o.width = params.value("width").toInt();
  return o;
}

}  // namespace milab
