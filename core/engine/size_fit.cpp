#include "engine/size_fit.h"

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <cmath>

namespace milab {

SizeFit fitInverseSize(const std::vector<SizeMean>& sizes, double sigma, double sigmaDf) {
  SizeFit fit;
  const size_t n = sizes.size();
  if (n < 2) return fit;
  double meanX = 0, meanY = 0;
  for (const SizeMean& s : sizes) {
    meanX += 1.0 / double(s.rows) / double(n);
    meanY += s.mean / double(n);
  }
  double sxx = 0, sxy = 0;
  for (const SizeMean& s : sizes) {
    const double dx = 1.0 / double(s.rows) - meanX;
    sxx += dx * dx;
    sxy += dx * (s.mean - meanY);
  }
  if (!(sxx > 0)) return fit;
  fit.slope = sxy / sxx;
  fit.value = meanY - fit.slope * meanX;
  // The intercept is sum_j w_j y_j with w_j = 1/n - meanX (x_j - meanX) / sxx.
  double weights = 0, residuals = 0;
  for (const SizeMean& s : sizes) {
    const double x = 1.0 / double(s.rows);
    const double w = 1.0 / double(n) - meanX * (x - meanX) / sxx;
    weights += w * w;
    const double r = s.mean - (fit.value + fit.slope * x);
    residuals += r * r;
  }
  if (std::isfinite(sigma) && sigma > 0) {
    fit.stderror = sigma * std::sqrt(weights);
    const double df = double(n - 2), f = residuals / df / (sigma * sigma);
    namespace bm = boost::math;
    if (n > 2 && std::isinf(sigmaDf))  // sigma known: the residuals' chi-squared
      fit.consistencyP = bm::cdf(bm::complement(bm::chi_squared_distribution<double>(df), f * df));
    else if (n > 2 && sigmaDf > 0)
      fit.consistencyP = bm::cdf(bm::complement(bm::fisher_f_distribution<double>(df, sigmaDf), f));
  }
  return fit;
}

}  // namespace milab
