#pragma once
// mmg's settings: their ParamSpecs and the typed options read from a validated ParamMap in one place (mmgOptions:
// the only reader of the method's ParamMap by key). Each default is declared once, here; the ParamSpecs take theirs
// from a default-constructed MmgOptions.
#include "log_snr_draws.h"
#include "params/param_spec.h"

namespace milab {

struct MmgOptions {
  int64_t batch = 256;
  double lr = 2e-3;
  int64_t hidden = 128;
  int64_t layers = 3;
  double dropout = 0.35;  // the share of training rows whose y is dropped (mmg_options.cpp says why not 0.5)
  double ema = 0.99;     // the readings' weights: this moving average of the trained ones (0: the trained ones)
  LogSnrRange range;
  int64_t draws = 10;  // log-SNR draws per held-out row in a reading
  bool orthogonal = true;  // the reading: E |eps(z, y) - eps(z)|^2 (true) or the difference of the two errors
  bool oracle = false;
};

ParamSpecs mmgParamSpecs();
MmgOptions mmgOptions(const ParamMap& params);

}  // namespace milab
