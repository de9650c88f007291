#include "engine/prior_order_sweep_options.h"

#include "markov/enumeration.h"

namespace milab {

const ParamSpecs& priorOrderSweepSpecs() {
  const PriorOrderSweepOptions d;
  static const ParamSpecs specs{
      ParamSpec::integer("max_order", d.maxOrder, 0, markov::kMaxEnumeratedBits - 1, "largest prior order r to fit"),
      ParamSpec::integer("fit_steps", d.fitSteps, 0, 100000,
                         "Adam steps fitting AMMI's prior per order (0: closed form only)"),
      ParamSpec::real("fit_lr", d.fitLr, 0.0, 1.0, "learning rate of the prior's Adam", true, false),
      ParamSpec::integer("fixed_batch", int(d.fixedBatch), 1, 1 << 20,
                         "samples in the fixed batch whose code entropy is read"),
  };
  return specs;
}

PriorOrderSweepOptions PriorOrderSweepOptions::from(const ParamMap& sweep) {
  PriorOrderSweepOptions o;
  o.maxOrder = sweep.value("max_order").toInt();
  o.fitSteps = sweep.value("fit_steps").toInt();
  o.fitLr = sweep.value("fit_lr").toDouble();
  o.fixedBatch = sweep.value("fixed_batch").toLongLong();
  return o;
}

MarkovEncoderKeys MarkovEncoderKeys::from(const ParamMap& methodParams) {
  MarkovEncoderKeys k;
  k.bits = methodParams.value("bits").toInt();
  k.orderY = methodParams.value("order_y").toInt();
  k.hidden = methodParams.value("hidden").toInt();
  return k;
}

}  // namespace milab
