// The ticks of UnitTicker (plot/unit_ticker.h): the shown range's, put back where the data are.
#include "plot/unit_ticker.h"

namespace milab {

void UnitTicker::generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision,
                          QVector<double>& ticks, QVector<double>* subTicks, QVector<QString>* tickLabels) {
  QCPAxisTicker::generate(QCPRange(range.lower * shownPerNat_, range.upper * shownPerNat_), locale, formatChar,
                          precision, ticks, subTicks, tickLabels);
  for (double& t : ticks) t /= shownPerNat_;  // back where the data are; the labels stay in the shown units
  if (subTicks)
    for (double& t : *subTicks) t /= shownPerNat_;
}

}  // namespace milab
