#pragma once
// The further readings of a run (RunResult::readings) as a line's words: the interval ("95% interval 0.911 to 0.989
// nats"), the test of independence as one phrase
// ("p 0.050 against 19 permutations of y, which read -1.477 +- 0.038 nats"), any other reading (a probe's
// accuracy) as its name and value. Shared by the runner's result line, a grid's cell lines and the window.
#include <QList>
#include <QString>
#include <functional>

#include "results/display_units.h"
#include "tasks/task.h"

namespace milab {

// The reading named `name`, NaN when there is none.
double readingValue(const QList<NamedValue>& readings, const QString& name);

// ", " before each part; empty when there is none. html: the window's rich text (the test's phrase in bold).
// units: the amounts in nats or bits (results/display_units.h); p-values and counts are as they are.
QString readingsInWords(const QList<NamedValue>& readings, bool html = false, Units units = Units::Nats);

// What follows a reading in a table's cell: its interval over the data " [low, high]" when it has one, else its
// standard error " ± stderr" when one was measured (finite and above 0), else nothing: a bare number is a reading
// with no spread, never "± 0.000" (issue 79). `format` writes one amount (already in the table's units).
QString spreadInWords(double stderror, double low, double high, const std::function<QString(double)>& format,
                      const QString& plusMinus = QStringLiteral("±"));

// A truth as a line writes it: the amount, and beside a Monte Carlo truth (TaskModel::totalMiStandardError above 0)
// its standard error, "0.1234 +- 0.0011 (Monte Carlo)". `format` writes one amount.
QString truthInWords(double truth, double standardError, const std::function<QString(double)>& format,
                     const QString& plusMinus = QStringLiteral("+-"));

}  // namespace milab
