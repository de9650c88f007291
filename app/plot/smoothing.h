#pragma once
// The trailing moving average the plots draw over a training curve: the mean of the last `window` values.
#include <QList>
#include <QVector>
#include <algorithm>
#include <cmath>
#include <utility>

namespace milab {

inline QVector<double> movingAverage(const QVector<double>& values, int window) {
  QVector<double> out(values.size());
  double sum = 0;
  window = std::max(1, window);
  for (int i = 0; i < values.size(); ++i) {
    sum += values[i];
    if (i >= window) sum -= values[i - window];
    out[i] = sum / std::min(i + 1, window);
  }
  return out;
}

}  // namespace milab

namespace milab {

// A y range a reader can use: every reference line (targets, ceilings, 0), `top` at least, and the 2nd to 98th
// percentile of the curve values, but never further than R below zero or 2R above it, R the largest reference (at
// least 1 nat). Wild steps (NWJ's exponential on the cubic task, a diverging critic: -3e9 nats) are then left off
// scale, where the figure says so, instead of squashing every target and ceiling into one flat line.
inline std::pair<double, double> readableRange(QVector<double> values, const QList<double>& references,
                                               double top = 1) {
  double lo = 0, hi = top;
  for (double r : references)
    if (std::isfinite(r)) {
      lo = std::min(lo, r);
      hi = std::max(hi, r);
    }
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }), values.end());
  if (!values.isEmpty()) {
    std::sort(values.begin(), values.end());
    const int n = int(values.size());
    lo = std::min(lo, values[int(0.02 * (n - 1))]);
    hi = std::max(hi, values[int(std::ceil(0.98 * (n - 1)))]);
  }
  double reach = 1;
  for (double r : references)
    if (std::isfinite(r)) reach = std::max(reach, std::abs(r));
  return {std::max(lo, -reach), std::min(hi, 2 * reach)};
}

}  // namespace milab
