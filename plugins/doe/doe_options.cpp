#include "doe/doe_options.h"

namespace milab {

DoeOptions DoeOptions::from(const ParamMap& params, const QString& fixedFamily) {
  DoeOptions o;
  o.density = DensityOptions::from(params);
  o.family = densityFamilyOf(fixedFamily.isEmpty() ? params.value("family").toString() : fixedFamily);
  o.shape = ConditionalDensityShape{params.value("activation").toString() == "tanh", params.value("init").toDouble()};
  o.clip = params.value("clip").toDouble();
  return o;
}

}  // namespace milab
