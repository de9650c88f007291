#include "results/grid_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTextStream>
#include <cmath>
#include <limits>

#include "method/shared_method_options.h"
#include "results/csv_cell.h"
#include "results/run_files.h"
#include "results/summary_result.h"
#include "tasks/shared_task_options.h"

namespace milab {

namespace {

// The CSV's mi and K columns: the stated value as the settings hold it, "" where the task or method has none.
QString statedMiText(const ParamMap& taskParams) {
  const std::optional<double> mi = SharedTaskOptions::from(taskParams).mi;
  return mi ? QVariant(*mi).toString() : QString();
}
QString contrastiveSetSizeText(const ParamMap& methodParams) {
  const std::optional<qint64> K = SharedMethodOptions::from(methodParams).K;
  return K ? QString::number(*K) : QString();
}

}  // namespace

QString writeGridCsv(const QString& path, const QList<CellResult>& cells) {
  QStringList coordinateKeys, ceilingNames, termNames, readingNames;
  // A table's permutation baseline; a method's doubt about its reading; the run's diagnostics.
  bool baselines = false, warnings = false, flagged = false;
  bool monteCarloTruths = false;  // a truth with a standard error of its own (bmi's mixtures)
  for (const CellResult& c : cells) {
    monteCarloTruths = monteCarloTruths || c.result.trueMiStderr > 0;
    baselines = baselines || std::isfinite(c.result.baseline);
    warnings = warnings || !c.result.warning.isEmpty();
    flagged = flagged || !c.result.flags.isEmpty();
    for (auto it = c.cell.coordinates.cbegin(); it != c.cell.coordinates.cend(); ++it)
      if (!coordinateKeys.contains(it.key())) coordinateKeys << it.key();
    for (const Ceiling& ceiling : c.result.ceilings)
      if (!ceilingNames.contains(ceiling.name)) ceilingNames << ceiling.name;
    for (const NamedValue& t : c.result.terms)
      if (!termNames.contains(t.name)) termNames << t.name;
    for (const NamedValue& v : c.result.readings)
      if (!readingNames.contains(v.name)) readingNames << v.name;
  }
  // A resumed cell reads its terms and readings back from JSON in key order: the same columns either way.
  termNames.sort();
  readingNames.sort();
  // The usual coordinates always get a column, filled from the spec when they were not varied.
  for (const QString& k : {"method", "task", "mi", "K", "seed"}) coordinateKeys.removeAll(k);
  QStringList header{"cell", "method", "task", "mi", "K", "seed"};
  header << coordinateKeys << QStringList{"steps", "status", "target", "true_value"};
  if (monteCarloTruths) header << "true_value_stderr";
  header << QStringList{"estimate", "stderr"};
  for (const QString& n : ceilingNames) header << "ceiling " + n;
  for (const QString& n : termNames) header << "term " + n;
  header << readingNames;  // e.g. probe_accuracy, probe_accuracy_untrained
  if (baselines) header << QStringList{"baseline", "baseline_stderr"};
  header << QStringList{"seconds", "reason"};
  if (warnings) header << "warning";
  if (flagged) header << "flags";

  QByteArray bytes;
  QTextStream out(&bytes);
  QStringList headerFields;
  for (const QString& h : header) headerFields << csvField(h);
  out << headerFields.join(',') << '\n';
  for (const CellResult& c : cells) {
    const RunSpec& s = c.cell.spec;
    const RunResult& r = c.result;
    QStringList row{c.cell.name,
                    s.method,
                    s.task,
                    statedMiText(s.taskParams),
                    contrastiveSetSizeText(s.methodParams),
                    QString::number(s.seed)};
    for (const QString& k : coordinateKeys) row << c.cell.coordinates.value(k).toString();
    const bool estimated = hasEstimate(r);  // a failed cell: empty fields
    row << QString::number(s.steps) << statusName(r.status) << r.targetName << csvCell(r.trueMi);
    if (monteCarloTruths) row << csvCell(r.trueMiStderr);
    row << (estimated ? csvCell(r.estimate) : QString()) << (estimated ? csvCell(r.stderror) : QString());
    auto valueNamed = [](const QList<NamedValue>& values, const QString& name) {
      for (const NamedValue& v : values)
        if (v.name == name) return csvCell(v.value);
      return QString();
    };
    for (const QString& n : ceilingNames) row << valueNamed(r.ceilings, n);
    for (const QString& n : termNames) row << valueNamed(r.terms, n);
    for (const QString& n : readingNames) row << valueNamed(r.readings, n);
    if (baselines) row << csvCell(r.baseline) << csvCell(r.baselineStderr);
    row << csvCell(r.seconds) << r.reason;
    if (warnings) row << r.warning;
    if (flagged) {
      QStringList names;  // the reasons are in each cell's summary.json
      for (const RunFlag& f : r.flags) names << f.name;
      row << names.join(';');
    }
    QStringList fields;
    for (const QString& f : row) fields << csvField(f);
    out << fields.join(',') << '\n';
  }
  out.flush();
  return saveAtomically(path, bytes);
}

bool readFinishedSummary(const QString& summaryPath, const RunSpec& spec, RunResult* result) {
  RunResult r;
  if (!readEndedSummary(summaryPath, spec, &r) || r.status != RunStatus::Finished) return false;
  *result = r;
  return true;
}

bool readEndedSummary(const QString& summaryPath, const RunSpec& spec, RunResult* result) {
  QFile file(summaryPath);
  if (!file.open(QIODevice::ReadOnly)) return false;
  const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
  RunResult r;
  if (!resultFromSummary(o, &r)) return false;
  if (o.value("experiment").toObject() != summaryJson(spec, RunResult()).value("experiment").toObject()) return false;
  // The files must belong to this run: a curve of another run (killed between its curve and its summary, or
  // one with other settings) has another number of rows than the summary's steps.
  const QString curvePath = QFileInfo(summaryPath).dir().filePath("curve.csv");
  if (!QFileInfo::exists(curvePath) || readCurveCsv(curvePath).size() != o.value("steps_done").toInt()) return false;
  *result = r;
  return true;
}

}  // namespace milab
