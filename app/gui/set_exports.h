#pragma once
// The comparison set's curves and summaries as one file each, every run of the set in it (issue 79: "Export curve"
// wrote the set's last run only, without saying which). One run writes what its run folder holds (curve.csv's
// columns, summary.json); several add which run each row or summary is: its number in the set's table and its label.
#include <QString>

namespace milab {

class ComparisonSet;

// Each returns "" or the error line; `*written` says what was written ("3 runs' curves", "the run's summary").
QString exportSetCurves(const ComparisonSet& set, const QString& path, QString* written);
QString exportSetSummaries(const ComparisonSet& set, const QString& path, QString* written);

}  // namespace milab
