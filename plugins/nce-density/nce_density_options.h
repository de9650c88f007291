#pragma once
// nce-density's settings as typed fields, read from a validated ParamMap in one place (NceDensityOptions::from,
// the only reader of the method's ParamMap by key).
#include "params/param_spec.h"

namespace milab {

struct NceDensityOptions {
  int batch = 256;
  int noiseRatio = 4;       // nu: noise samples per data sample
  double noiseScale = 1.5;  // the Gaussian noise law's standard deviation
  double lr = 0.1;
  double noiseChunk = 1 << 20;  // noise values (samples x dimension) per pass
  static NceDensityOptions from(const ParamMap& params);
};

}  // namespace milab
