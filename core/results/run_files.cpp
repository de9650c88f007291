#include "results/run_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTextStream>
#include <algorithm>
#include <cmath>
#include <sys/stat.h>

#include "method/shared_method_options.h"
#include "results/curve_terms.h"
#include "results/embedding_files.h"
#include "tasks/shared_task_options.h"

namespace milab {

namespace {

QJsonValue jsonNumber(double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null); }

QJsonObject namedValues(const QList<NamedValue>& values) {
  QJsonObject o;
  for (const NamedValue& v : values) o.insert(v.name, jsonNumber(v.value));
  return o;
}

}  // namespace

QString csvField(QString s) {
  if (s.contains(',') || s.contains('"') || s.contains('\n')) s = '"' + s.replace('"', "\"\"") + '"';
  return s;
}

namespace {

// Writes all of `bytes` into `file` (opened here) without committing it. QSaveFile never leaves a half-written
// file behind, but through Qt's write buffer a full disk (ENOSPC at the flush inside commit) was measured to commit
// an empty or cut file with no error: unbuffered, every write reports its own failure.
// A link planted where a result goes (a symlink in an --out folder, issue 80) is removed, not followed: QSaveFile would
// write through it to the link's target. The result then takes the link's place, and the target is left as it was.
QString stage(QSaveFile* file, const QByteArray& bytes) {
  if (QFileInfo(file->fileName()).isSymLink() && !QFile::remove(file->fileName()))
    return QStringLiteral("%1: is a link that cannot be removed, and results are never written through a link")
        .arg(file->fileName());
  bool ok = file->open(QIODevice::WriteOnly | QIODevice::Unbuffered);
  for (qint64 at = 0; ok && at < bytes.size();) {
    const qint64 n = file->write(bytes.constData() + at, bytes.size() - at);
    ok = n > 0;
    at += std::max<qint64>(n, 0);
  }
  if (ok) return {};
  const QString why = file->errorString();
  file->cancelWriting();  // the temporary file is discarded, never renamed over the old one
  return QStringLiteral("%1: cannot write (%2)").arg(file->fileName(), why);
}

QString commit(QSaveFile* file) {
  return file->commit() ? QString() : QStringLiteral("%1: cannot write (%2)").arg(file->fileName(), file->errorString());
}

}  // namespace

QString saveAtomically(const QString& path, const QByteArray& bytes) {
  QSaveFile file(path);
  if (QString error = stage(&file, bytes); !error.isEmpty()) return error;
  return commit(&file);
}

RunResult withFilesNotWritten(RunResult result, const QStringList& errors) {
  if (errors.isEmpty()) return result;
  const QString read = hasEstimate(result) ? QStringLiteral("; it read %1 +- %2 nats")
                                                 .arg(result.estimate, 0, 'f', 4)
                                                 .arg(result.stderror, 0, 'f', 4)
                                           : QString();
  result.reason = QStringLiteral("its files could not be written: %1%2%3")
                      .arg(errors.first(), read, result.reason.isEmpty() ? QString() : " (" + result.reason + ")");
  result.status = RunStatus::Failed;
  return result;
}

QJsonObject summaryJson(const RunSpec& spec, const RunResult& result) {
  QJsonObject o;
  o.insert("method", spec.method);
  o.insert("task", spec.task);
  // A task whose id names its sizes (a Beyond-Normal one) has no dim key: null.
  const std::optional<int> dim = SharedTaskOptions::from(spec.taskParams).dim;
  const std::optional<qint64> K = SharedMethodOptions::from(spec.methodParams).K;
  o.insert("dim", dim ? QJsonValue(*dim) : QJsonValue(QJsonValue::Null));
  o.insert("K", K ? QJsonValue(int(*K)) : QJsonValue(QJsonValue::Null));
  o.insert("steps", spec.steps);
  o.insert("steps_done", result.stepsDone);
  o.insert("seed", spec.seed);
  o.insert("true_mi", jsonNumber(result.trueMi));  // the exact value of `target`
  if (result.trueMiStderr > 0) o.insert("true_mi_stderr", result.trueMiStderr);  // a Monte Carlo truth's error
  o.insert("target", result.targetName);
  // A failed run has no estimate (null), not a 0 that reads like one.
  const bool estimated = hasEstimate(result);
  o.insert("estimate", estimated ? jsonNumber(result.estimate) : QJsonValue(QJsonValue::Null));
  o.insert("stderr", estimated ? jsonNumber(result.stderror) : QJsonValue(QJsonValue::Null));
  if (spec.finiteSamples()) {
    o.insert("samples", spec.samples);
    o.insert("test_fraction", spec.testFraction);
  }
  // A run that trained nothing (KSG: no step, steps being at least 1 for every method that trains) reads all of a
  // finite set's rows at once (engine/held_out_reading.cpp finalReading), not its held-out part.
  const bool trainedNothing = result.stepsDone == 0;
  o.insert("estimate_source",
           !result.fromEvaluation ? QStringLiteral("last training steps")
           : spec.finiteSamples()
               ? (trainedNothing ? QStringLiteral("all %1 samples at once (nothing trained)").arg(spec.samples)
                                 : QStringLiteral("the held-out part of %1 samples (test_fraction %2)")
                                       .arg(spec.samples)
                                       .arg(spec.testFraction))
               : QStringLiteral("%1 fresh evaluation batches").arg(spec.evalBatches));
  o.insert("ceiling", result.ceilings.isEmpty() ? QJsonValue(QJsonValue::Null) : jsonNumber(result.ceilings[0].value));
  QJsonObject ceilings;
  for (const Ceiling& c : result.ceilings) ceilings.insert(c.name, jsonNumber(c.value));
  o.insert("ceilings", ceilings);
  if (result.upperBound) o.insert("upper_bound", true);  // CLUB: reads from above when its q is good
  o.insert("terms", namedValues(result.terms));
  o.insert("truths", namedValues(result.truths));
  o.insert("seconds", jsonNumber(result.seconds));
  o.insert("device", result.device);
  o.insert("status", statusName(result.status));
  if (!result.reason.isEmpty()) o.insert("reason", result.reason);
  if (std::isfinite(result.baseline))
    o.insert("permutation_baseline",
             QJsonObject{{"estimate", result.baseline}, {"stderr", jsonNumber(result.baselineStderr)}});
  if (!result.warning.isEmpty()) o.insert("warning", result.warning);
  if (!result.flags.isEmpty()) {
    QJsonObject flags;  // each diagnostic's name and its reason
    for (const RunFlag& f : result.flags) flags.insert(f.name, f.reason);
    o.insert("flags", flags);
  }
  // Each reading a top-level field (e.g. probe_accuracy), and all of them once more under "readings", where the
  // grid's resume reads them back without knowing their names.
  for (const NamedValue& r : result.readings) o.insert(r.name, jsonNumber(r.value));
  if (!result.readings.isEmpty()) o.insert("readings", namedValues(result.readings));
  if (!result.levels.isEmpty()) {
    QJsonArray levels;
    for (const LevelResult& l : result.levels)
      levels << QJsonObject{{"mi", l.mi},
                            {"target", l.target},
                            {"steps", l.steps},
                            {"mean", jsonNumber(l.mean)},
                            {"bias", jsonNumber(l.bias)},
                            {"variance", jsonNumber(l.variance)},
                            {"mse", jsonNumber(l.mse)}};
    o.insert("levels", levels);
    o.insert("steps_per_level", result.stepsPerLevel);
  }
  o.insert("experiment", QJsonObject::fromVariantMap(runSpecToFlat(spec)));
  return o;
}

QString writeSummaryJson(const QString& path, const RunSpec& spec, const RunResult& result) {
  return saveAtomically(path, QJsonDocument(summaryJson(spec, result)).toJson(QJsonDocument::Indented));
}

namespace {

// The folder itself, as its file system names it: device and inode, which a rename or a move within the file system
// keeps and a copy does not. "" when it does not exist.
QByteArray folderIdentity(const QDir& folder) {
  struct stat st {};
  if (::stat(QFile::encodeName(folder.path()).constData(), &st) != 0) return {};
  return QByteArray::number(qulonglong(st.st_dev)) + ':' + QByteArray::number(qulonglong(st.st_ino));
}

// The record key of the run about to write into `folder` (run_files.h): the key its .history-key holds when the
// last run there never completed, else a new one, kept there before the row is recorded. A key replaces the row
// recorded under it, so it is taken only from a regular file (not a link planted there) that names this very
// folder: a .history-key copied or linked from another run's folder would otherwise replace that run's row
// (issue 80's probe did both).
QString folderRecordKey(const QDir& folder, bool lastRunCompleted) {
  const QString path = folder.filePath(".history-key");
  const QFileInfo info(path);
  QFile f(path);
  if (!lastRunCompleted && !info.isSymLink() && info.isFile() && f.open(QIODevice::ReadOnly)) {
    const QList<QByteArray> lines = f.read(256).split('\n');
    const QString kept = QString::fromLatin1(lines.value(0)).trimmed();
    if (!kept.isEmpty() && lines.value(1) == folderIdentity(folder)) return kept;
  }
  const QString key = newRecordKey();
  if (QDir().mkpath(folder.path()))  // unwritable: the key is only not kept
    saveAtomically(path, key.toLatin1() + '\n' + folderIdentity(folder) + '\n');
  return key;
}

}  // namespace

QStringList writeRunFiles(const QString& dir, const RunSpec& spec, RunResult* result, const QVector<CurvePoint>& curve,
                          const std::function<QStringList()>& more,
                          const std::function<void(const RunResult&, const RecordPlace&)>& record) {
  const QDir folder(dir);
  const QString summaryPath = folder.filePath("summary.json");
  const RecordPlace place{folderRecordKey(folder, QFileInfo::exists(summaryPath)), dir};
  const auto recordFailure = [&](const QStringList& errors) {
    *result = withFilesNotWritten(*result, errors);
    if (record) record(*result, place);
    return errors;
  };
  if (!QDir().mkpath(dir)) return recordFailure({QStringLiteral("out: cannot create folder '%1'").arg(dir)});
  if (QFileInfo::exists(summaryPath) && !QFile::remove(summaryPath))
    return recordFailure({QStringLiteral("%1: cannot replace it").arg(summaryPath)});
  QStringList errors{writeCurveCsv(folder.filePath("curve.csv"), curve)};
  if (!result->embedding.isEmpty()) {
    errors << writeEmbeddingFiles(folder, result->embedding);
  } else {  // an earlier run's picture in a reused folder (and the runner's drawing of it) would pass for this one's
    for (const char* stale : {"embedding.csv", "neighbours.csv", "embedding.png"})
      QFile::remove(folder.filePath(stale));
  }
  if (more) errors << more();
  errors.removeAll(QString());
  // The summary is the mark of a complete cell: written only when everything before it was, and renamed into
  // place only after the run is in the history, so a folder that says finished always has its history row.
  QSaveFile summary(summaryPath);
  if (errors.isEmpty())
    errors << stage(&summary, QJsonDocument(summaryJson(spec, *result)).toJson(QJsonDocument::Indented));
  errors.removeAll(QString());
  if (!errors.isEmpty()) return recordFailure(errors);
  if (record) record(*result, place);
  if (const QString error = commit(&summary); !error.isEmpty()) {
    errors << error;
    *result = withFilesNotWritten(*result, errors);  // its row, already written, says finished: rare (a rename)
  }
  return errors;
}

QString writeCurveCsv(const QString& path, const QVector<CurvePoint>& curve) {
  QByteArray bytes;
  QTextStream out(&bytes);
  // A run of the finite-sample protocol adds its held-out readings, a learned representation its probe accuracies
  // (each empty between its readings) and a method that reports its terms per step one column each, named by the
  // term; others keep four columns.
  const auto any = [&](double CurvePoint::*field) {
    return std::any_of(curve.begin(), curve.end(), [&](const CurvePoint& p) { return !std::isnan(p.*field); });
  };
  const bool heldOut = any(&CurvePoint::heldOut), probe = any(&CurvePoint::probe);
  const QStringList terms = curveTermNames(curve);
  out << "step,estimate,loss,seconds" << (heldOut ? ",held_out" : "") << (probe ? ",probe_accuracy" : "");
  for (const QString& t : terms) out << ',' << csvField(t);
  out << '\n';
  out.setRealNumberPrecision(10);
  const auto optional = [&](double v) {
    out << ',';
    if (!std::isnan(v)) out << v;
  };
  for (const CurvePoint& p : curve) {
    out << p.step << ',' << p.estimate << ',' << p.loss << ',' << p.seconds;
    if (heldOut) optional(p.heldOut);
    if (probe) optional(p.probe);
    for (const QString& name : terms) optional(termValue(p, name));
    out << '\n';
  }
  out.flush();
  return saveAtomically(path, bytes);
}

}  // namespace milab

namespace milab {

QVector<CurvePoint> readCurveCsv(const QString& path) {
  QVector<CurvePoint> curve;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return curve;
  const QList<QByteArray> header = file.readLine().trimmed().split(',');
  const int heldOut = header.indexOf("held_out"), probe = header.indexOf("probe_accuracy");
  // Every column after the known ones is a term's (its name has no comma: the lab's term names never do).
  const int firstTerm = std::max({3, heldOut, probe}) + 1;
  const auto optional = [](const QList<QByteArray>& f, int column, double* into) {
    if (column >= 0 && column < f.size() && !f[column].isEmpty()) *into = f[column].toDouble();
  };
  while (!file.atEnd()) {
    const QList<QByteArray> f = file.readLine().trimmed().split(',');
    if (f.size() < 4) continue;
    CurvePoint p{f[0].toInt(), f[1].toDouble(), f[2].toDouble(), f[3].toDouble()};
    optional(f, heldOut, &p.heldOut);
    optional(f, probe, &p.probe);
    for (int c = firstTerm; c < header.size() && c < f.size(); ++c)
      if (!f[c].isEmpty()) p.terms << NamedValue{QString::fromUtf8(header[c]), f[c].toDouble()};
    curve.push_back(p);
  }
  return curve;
}

QString writeStaircaseCsv(const QString& path, const QStringList& labels, const QList<RunResult>& results) {
  QByteArray bytes;
  QTextStream out(&bytes);
  out.setRealNumberPrecision(10);
  out << "run,level,mi,target,steps,mean,bias,variance,mse\n";
  for (int i = 0; i < results.size(); ++i)
    for (int l = 0; l < results[i].levels.size(); ++l) {
      const LevelResult& r = results[i].levels[l];
      out << csvField(labels.value(i)) << ',' << l + 1 << ',' << r.mi << ',' << r.target << ',' << r.steps << ',';
      if (r.steps > 0)
        out << r.mean << ',' << r.bias << ',' << r.variance << ',' << r.mse;
      else
        out << ",,,";
      out << '\n';
    }
  out.flush();
  return saveAtomically(path, bytes);
}

}  // namespace milab
