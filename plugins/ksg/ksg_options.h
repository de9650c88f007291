#pragma once
// KSG's settings as typed fields, read from a validated ParamMap in one place (KsgOptions::from, the only reader
// of the family's ParamMap by key).
#include "params/param_spec.h"

namespace milab {

struct KsgOptions {
  int k = 3;           // neighbours
  int setSize = 2000;  // joint draws per estimate
  static KsgOptions from(const ParamMap& params);
};

}  // namespace milab
