#pragma once
// DoE's settings as typed fields, read from a validated ParamMap in one place (DoeOptions::from, the only reader
// of the family's ParamMap by key): the density model's shared ones and DoE's own (family, activation, init,
// clip). Torch header: the family's translation units only.
#include <QString>

#include "method/density_options.h"
#include "nn/density_model.h"

namespace milab {

struct DoeOptions {
  // The DoE paper's configuration (doe_family.cpp says where from): 128 units, Adam at 3e-4, a tanh layer with
  // U(+-0.05) weights.
  DensityOptions density = [] {
    DensityOptions d;
    d.hidden = 128;
    d.lr = 3e-4;
    return d;
  }();
  DensityFamily family = DensityFamily::Gaussian;
  ConditionalDensityShape shape{true, 0.05};  // the hidden layer's activation and initialisation of q(y|x)
  double clip = 10;               // the gradient norm's clip; 0: never
  // `fixedFamily` non-empty (doe-logistic): that family, the method declaring no key `family`.
  static DoeOptions from(const ParamMap& params, const QString& fixedFamily);
};

}  // namespace milab
