#pragma once
// The prior-order sweep's keys (max_order, fit_steps, fit_lr, fixed_batch) with their ParamSpecs, and the keys it
// reads of a Markov encoder's settings (bits, order_y, hidden: what every method with MethodInfo::markovEncoder
// declares), each read from a ParamMap by key in one place. Torch-free.
#include <QtGlobal>

#include "params/param_spec.h"

namespace milab {

// max_order, fit_steps, fit_lr, fixed_batch.
const ParamSpecs& priorOrderSweepSpecs();

struct PriorOrderSweepOptions {
  int maxOrder = 13, fitSteps = 300;
  double fitLr = 0.01;
  qint64 fixedBatch = 64;
  static PriorOrderSweepOptions from(const ParamMap& sweep);
};

// A Markov encoder's code: m bits, its order o, and the hidden width the sweep gives AMMI's prior network.
struct MarkovEncoderKeys {
  int bits = 0, orderY = 0;
  qint64 hidden = 0;
  static MarkovEncoderKeys from(const ParamMap& methodParams);
};

}  // namespace milab
