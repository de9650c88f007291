#include "class_channel.h"

#include <algorithm>
#include <cmath>

namespace milab {

double binaryEntropy(double p) {
  const auto term = [](double q) { return q > 0 ? -q * std::log(q) : 0.0; };
  return term(p) + term(1.0 - p);
}

double classChannelMi(int sources, double crossover) { return sources * (std::log(2.0) - binaryEntropy(crossover)); }

double crossoverFor(int sources, double mi) {
  const double perBit = std::clamp(mi / sources, 0.0, std::log(2.0));
  double low = 0, high = 0.5;  // MI(low) >= mi >= MI(high)
  for (int i = 0; i < 200 && high - low > 1e-16; ++i) {
    const double mid = 0.5 * (low + high);
    (std::log(2.0) - binaryEntropy(mid) >= perBit ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

}  // namespace milab
