#include "nce_density_options.h"

namespace milab {

NceDensityOptions NceDensityOptions::from(const ParamMap& params) {
  NceDensityOptions o;
  o.batch = params.value("batch").toInt();
  o.noiseRatio = params.value("noise_ratio").toInt();
  o.noiseScale = params.value("noise_scale").toDouble();
  o.lr = params.value("lr").toDouble();
  o.noiseChunk = params.value("noise_chunk").toDouble();
  return o;
}

}  // namespace milab
