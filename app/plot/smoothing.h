#pragma once
// The trailing moving average the plots draw over a training curve: the mean of the last `window` values.
#include <QVector>

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
