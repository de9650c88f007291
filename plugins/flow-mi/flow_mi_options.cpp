#include "flow_mi_options.h"

namespace milab {

ParamSpecs flowMiParamSpecs() {
  const FlowMiOptions d;
  return {
      ParamSpec::integer("batch", int(d.batch), 2, 65536, "joint samples per training step and per evaluation batch"),
      ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate", true, false),
      ParamSpec::integer("depth", int(d.depth), 1, 64,
                         "affine coupling layers of each flow (after one elementwise affine)"),
      ParamSpec::integer("width", int(d.width), 1, 4096,
                         "hidden ReLU units of each coupling layer's two-layer conditioner"),
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
