#pragma once
// A run's results as files: pure functions of (spec, result, curve), no dialogs, so tests and the CLI share
// them with the GUI's export menu.
#include <QJsonObject>
#include <QString>
#include <QVector>
#include <functional>

#include "engine/run.h"
#include "results/history_row.h"

namespace milab {

// method, task, dim, K, steps, seed, true_mi, estimate, stderr, ceiling, terms, seconds, device, status ...
QJsonObject summaryJson(const RunSpec& spec, const RunResult& result);

// A CSV field: quoted (quotes doubled) when it holds a comma, a quote or a newline.
QString csvField(QString s);

// Writes through QSaveFile, so a crash never leaves a half-written file. Returns "" or an error line.
QString saveAtomically(const QString& path, const QByteArray& bytes);

// Each returns "" or an error line naming the file.
QString writeSummaryJson(const QString& path, const RunSpec& spec, const RunResult& result);
QString writeCurveCsv(const QString& path, const QVector<CurvePoint>& curve);  // step,estimate,loss,seconds
// A run's files in its folder, in the one order a kill cannot fool: first the summary.json of whatever ran there
// before is removed, then curve.csv (and a learned representation's embedding.csv and neighbours.csv,
// results/embedding_files.h) and whatever `more` writes (the CLI's plots), then summary.json is written
// aside, `record` is called (the run history's row), and summary.json is renamed into place last. A folder with a
// summary therefore holds that run's complete files and has its history row; resume also checks that the curve has
// the summary's steps. A file that could not be written marks `*result` failed (withFilesNotWritten), and `record`
// gets it as it then stands, with the place of its row: this folder, and the key kept in its .history-key. A run
// into a folder whose last run completed gets a new key (a new row beside the old one's); a run into a folder whose
// last run was recorded but killed before its summary (a resumed grid's cell) takes that run's key, and so its row.
// Returns the error lines (empty when all were written).
QStringList writeRunFiles(const QString& dir, const RunSpec& spec, RunResult* result, const QVector<CurvePoint>& curve,
                          const std::function<QStringList()>& more = {},
                          const std::function<void(const RunResult&, const RecordPlace&)>& record = {});
// A run whose files could not all be written is failed: its record is incomplete. The reason names the first
// error (file and errno) and keeps what the run read, so the history still holds the number.
RunResult withFilesNotWritten(RunResult result, const QStringList& errors);
// Reads a curve.csv back (empty when the file is missing or unreadable).
QVector<CurvePoint> readCurveCsv(const QString& path);

// The MI staircase's per-level table: one row per (run, level) with the level's MI, the target, and the bias,
// variance and MSE of the estimate over the level's last steps. `labels[i]` names runs[i].
QString writeStaircaseCsv(const QString& path, const QStringList& labels, const QList<RunResult>& results);

}  // namespace milab
