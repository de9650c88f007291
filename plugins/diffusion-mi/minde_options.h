#pragma once
// minde-c's settings: their ParamSpecs and the typed options read from a validated ParamMap in one place
// (mindeOptions: the only reader of the method's ParamMap by key). Each default is declared once, here; the
// ParamSpecs take theirs from a default-constructed MindeOptions.
#include "params/param_spec.h"
#include "vp_sde.h"

namespace milab {

struct MindeOptions {
  int64_t batch = 256;
  double lr = 2e-3;
  int64_t hidden = 0;  // 0: MINDE's width for dim x + dim y columns (hiddenFor)
  int64_t layers = 3;
  double ema = 0.99;  // the readings' weights: this moving average of the trained ones (0: the trained ones)
  VpSchedule schedule;
  int64_t draws = 10;  // times drawn per held-out row in a reading
  bool oracle = false;
  int64_t hiddenFor(int64_t columns) const;
};

ParamSpecs mindeParamSpecs();
MindeOptions mindeOptions(const ParamMap& params);

}  // namespace milab
