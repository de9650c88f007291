#include "results/reading_words.h"

#include <cmath>

namespace milab {

namespace {

const QStringList kWordedNames{"p_value",          "permutations_read", "permuted_mean",
                               "permuted_sd",      "ci_level",          "ci_low",
                               "ci_high",          "extrapolated",      "extrapolated_se",
                               "extrapolated_low", "extrapolated_high", "size_consistency_p",
                               "retrained_se",
                               "reported_step",  // where the estimate was read (the plot marks it), not a reading
                               "oracle",         // the window's oracle beside the run, drawn as its dotted line
                               "oracle_se"};

}  // namespace

double readingValue(const QList<NamedValue>& readings, const QString& name) {
  for (const NamedValue& v : readings)
    if (v.name == name) return v.value;
  return std::nan("");
}

QString readingsInWords(const QList<NamedValue>& readings, bool html, Units units) {
  QString words;
  const QString unit = unitName(units);
  const auto amount = [&](const QString& name) { return inUnits(readingValue(readings, name), units); };
  const double level = readingValue(readings, "ci_level");
  if (std::isfinite(level)) {
    const QString interval = QStringLiteral("%1% interval %2 to %3 %4")
                                 .arg(level * 100, 0, 'g', 12)
                                 .arg(amount("ci_low"), 0, 'f', 3)
                                 .arg(amount("ci_high"), 0, 'f', 3)
                                 .arg(unit);
    words += html ? QStringLiteral("<br><b>%1</b>").arg(interval) : ", " + interval;
  }
  const double atInfinity = readingValue(readings, "extrapolated");
  if (std::isfinite(atInfinity)) {
    QString fit =
        QStringLiteral("extrapolated to infinite N %1 %2").arg(inUnits(atInfinity, units), 0, 'f', 3).arg(unit);
    if (std::isfinite(readingValue(readings, "extrapolated_low")))
      fit += QStringLiteral(" (%1% interval %2 to %3)")
                 .arg(readingValue(readings, "ci_level") * 100, 0, 'g', 12)
                 .arg(amount("extrapolated_low"), 0, 'f', 3)
                 .arg(amount("extrapolated_high"), 0, 'f', 3);
    const double agree = readingValue(readings, "size_consistency_p");
    if (std::isfinite(agree)) fit += QStringLiteral(", sizes consistent with 1/N p %1").arg(agree, 0, 'f', 2);
    words += html ? QStringLiteral("<br><b>%1</b>").arg(fit) : ", " + fit;
  }
  const double p = readingValue(readings, "p_value");
  if (std::isfinite(p)) {
    const double count = readingValue(readings, "permutations_read"), spread = readingValue(readings, "permuted_sd");
    const QString sd =
        std::isfinite(spread)
            ? QStringLiteral(" %1 %2").arg(html ? "&plusmn;" : "+-").arg(inUnits(spread, units), 0, 'f', 3)
            : QString();
    const QString test = QStringLiteral("independence test p %1 against %2 permutation%3 of y, which read %4%5 %6")
                             .arg(p, 0, 'f', 3)
                             .arg(count, 0, 'f', 0)
                             .arg(count == 1 ? "" : "s")
                             .arg(amount("permuted_mean"), 0, 'f', 3)
                             .arg(sd, unit);
    words += html ? QStringLiteral("<br><b>%1</b>").arg(test) : ", " + test;
  }
  for (const NamedValue& v : readings) {
    if (kWordedNames.contains(v.name)) continue;
    words += html ? QStringLiteral("<br><b>%1 = %2</b>").arg(v.name.toHtmlEscaped()).arg(v.value, 0, 'f', 4)
                  : QStringLiteral(", %1 %2").arg(v.name).arg(v.value, 0, 'f', 4);
  }
  return words;
}

QString spreadInWords(double stderror, double low, double high, const std::function<QString(double)>& format,
                      const QString& plusMinus) {
  if (std::isfinite(low) && std::isfinite(high)) return QStringLiteral(" [%1, %2]").arg(format(low), format(high));
  if (std::isfinite(stderror) && stderror > 0) return QStringLiteral(" %1 %2").arg(plusMinus, format(stderror));
  return {};
}

QString truthInWords(double truth, double standardError, const std::function<QString(double)>& format,
                     const QString& plusMinus) {
  if (!(standardError > 0)) return format(truth);
  return QStringLiteral("%1 %2 %3 (Monte Carlo)").arg(format(truth), plusMinus, format(standardError));
}

}  // namespace milab
