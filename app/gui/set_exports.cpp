#include "gui/set_exports.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <cmath>

#include "gui/comparison_set.h"
#include "gui/counted.h"
#include "results/run_files.h"

namespace milab {

QString exportSetCurves(const ComparisonSet& set, const QString& path, QString* written) {
  if (set.size() == 0) return QStringLiteral("export: nothing to export yet, run an experiment first");
  if (set.size() == 1) {
    *written = QStringLiteral("the run's curve");
    return writeCurveCsv(path, set.run(0).curve());
  }
  // Several runs share the columns every curve has; a run's terms stay in its own curve.csv.
  const QStringList labels = set.labels();
  QByteArray bytes;
  QTextStream out(&bytes);
  out.setRealNumberPrecision(10);
  out << "run,label,step,estimate,loss,seconds,held_out\n";
  for (int i = 0; i < set.size(); ++i) {
    const QVector<CurvePoint> curve = set.run(i).curve();
    for (const CurvePoint& p : curve) {
      out << i + 1 << ',' << csvField(labels[i]) << ',' << p.step << ',' << p.estimate << ',' << p.loss << ','
          << p.seconds << ',';
      if (!std::isnan(p.heldOut)) out << p.heldOut;
      out << '\n';
    }
    // A method that trains nothing (KSG) has no curve: its one reading is its row, at step 0 (the helper's trial
    // found it missing from an export that said it wrote every run).
    const RunResult r = set.run(i).result();
    if (curve.isEmpty() && hasEstimate(r)) out << i + 1 << ',' << csvField(labels[i]) << ",0," << r.estimate << ",,,\n";
  }
  out.flush();
  *written = QStringLiteral("%1' curves (a row per step; run numbers as in the table)")
                 .arg(counted(set.size(), "run"));
  return saveAtomically(path, bytes);
}

QString exportSetSummaries(const ComparisonSet& set, const QString& path, QString* written) {
  if (set.size() == 0) return QStringLiteral("export: nothing to export yet, run an experiment first");
  if (set.size() == 1) {
    *written = QStringLiteral("the run's summary");
    return writeSummaryJson(path, set.run(0).spec(), set.run(0).result());
  }
  const QStringList labels = set.labels();
  QJsonArray runs;
  for (int i = 0; i < set.size(); ++i) {
    QJsonObject summary = summaryJson(set.run(i).spec(), set.run(i).result());
    summary.insert("run", i + 1);
    summary.insert("label", labels[i]);
    runs << summary;
  }
  *written = QStringLiteral("%1' summaries (a list under \"runs\")").arg(counted(set.size(), "run"));
  return saveAtomically(path, QJsonDocument(QJsonObject{{"runs", runs}}).toJson(QJsonDocument::Indented));
}

}  // namespace milab
