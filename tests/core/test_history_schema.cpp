// The run history's schema versions (results/history_schema.h): a database the previous version wrote (checked in
// as tests/fixtures/history-v1.sqlite, written by milab-cli before version 2) opens, is upgraded in place and reads
// back every row and curve it held, value for value; the rows written after keep all that summary.json holds and
// every curve column; a database of a newer version is refused in one line naming both versions, and left as it is.
// A grid's cell keeps the same fields through grid.csv and a resume (its summary read back).
#include <QCryptographicHash>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <unistd.h>
#include <QtTest>
#include <cmath>

#include "results/curve_blob.h"
#include "results/grid_files.h"
#include "results/history_schema.h"
#include "results/run_files.h"
#include "results/run_store.h"
#include "time_limits.h"

using namespace milab;

namespace {

const char kVersion1Columns[] =
    "id, task, method, spec, status, reason, estimate, stderr, target, true_value, ceilings, terms, seconds,"
    " steps_done, device, version, origin, started, ended";

// Every row of a query, every column, as SQLite holds it: a connection of its own, closed after.
QList<QVariantList> rawRows(const QString& path, const QString& sql) {
  QList<QVariantList> rows;
  {
    QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "raw");
    db.setDatabaseName(path);
    if (!db.open()) qFatal("cannot open %s", qPrintable(path));
    QSqlQuery q(db);
    if (!q.exec(sql)) qFatal("%s", qPrintable(sql));
    while (q.next()) {
      QVariantList row;
      for (int c = 0; c < q.record().count(); ++c) row << q.value(c);
      rows << row;
    }
  }
  QSqlDatabase::removeDatabase("raw");
  return rows;
}

QByteArray digest(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

// One finished KSG run's row recorded in the history at `path`: "" or recordRun's error.
QString recordFinishedKsg(const QString& path) {
  RunSpec spec;
  spec.task = "gaussian2";
  spec.method = "ksg";
  RunResult result;
  result.status = RunStatus::Finished;
  return recordRun(path, spec, result, {}, "test");
}

}  // namespace

class TestHistorySchema : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void aVersionOneDatabaseIsUpgradedKeepingEveryRow() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    QVERIFY(QFile::copy(MILAB_SOURCE_DIR "/tests/fixtures/history-v1.sqlite", db));
    QFile::setPermissions(db, QFile::ReadOwner | QFile::WriteOwner);
    const QString runsSql = QStringLiteral("SELECT %1 FROM runs ORDER BY id").arg(kVersion1Columns);
    const QList<QVariantList> runsBefore = rawRows(db, runsSql);
    const QList<QVariantList> curvesBefore = rawRows(db, "SELECT run_id, points FROM curves ORDER BY run_id");
    QCOMPARE(rawRows(db, "PRAGMA user_version").value(0).value(0).toInt(), 0);
    QVERIFY(runsBefore.size() >= 3);

    const RunStore store(db);
    QCOMPARE(store.error(), QString());
    QCOMPARE(rawRows(db, "PRAGMA user_version").value(0).value(0).toInt(), kHistorySchemaVersion);
    QCOMPARE(rawRows(db, runsSql), runsBefore);  // every value of every row, as it was
    QCOMPARE(rawRows(db, "SELECT run_id, points FROM curves ORDER BY run_id"), curvesBefore);
    const QList<QVariantList> formats = rawRows(db, "SELECT DISTINCT format FROM curves");
    QCOMPARE(formats.size(), 1);
    QCOMPARE(formats[0][0].toInt(), 1);

    // Through the store: the same rows, and each curve as many points as the run took steps, step by step.
    const QList<StoredRun> runs = store.list();
    QCOMPARE(runs.size(), runsBefore.size());
    for (int i = 0; i < runs.size(); ++i) {
      const StoredRun& r = runs[i];
      QVERIFY(r.summary.isEmpty());                                     // written before summaries were kept
      const QVariantList& raw = runsBefore[runsBefore.size() - 1 - i];  // the store lists the newest first
      QCOMPARE(r.id, raw[0].toLongLong());
      QCOMPARE(r.method, raw[2].toString());
      QCOMPARE(r.status, raw[4].toString());
      QCOMPARE(r.estimate.has_value(), !raw[6].isNull());
      if (r.estimate) QCOMPARE(*r.estimate, raw[6].toDouble());
      const QVector<CurvePoint> points = store.curve(r.id);
      QCOMPARE(points.size(), r.stepsDone);
      for (int p = 0; p < points.size(); ++p) QCOMPARE(points[p].step, p + 1);
    }
  }

  // A run recorded now keeps its whole summary (the permutation baseline, the warning) and every curve column
  // (held-out readings, probe accuracies, terms), and `show` prints them: here on the upgraded fixture.
  void aNewRowKeepsTheSummaryAndEveryCurveColumn() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    QVERIFY(QFile::copy(MILAB_SOURCE_DIR "/tests/fixtures/history-v1.sqlite", db));
    QFile::setPermissions(db, QFile::ReadOwner | QFile::WriteOwner);
    RunSpec spec;
    spec.task = "data";
    spec.taskParams = {{"file", "table.csv"}, {"x_columns", "0"}, {"y_columns", "1"}};
    spec.method = "infonce";
    spec.steps = 3;
    spec.samples = 1000;
    RunResult r;
    r.status = RunStatus::Finished;
    r.estimate = -0.12;
    r.stderror = 0.03;
    r.fromEvaluation = true;
    r.targetName = "I(x;y)";
    r.trueMi = std::numeric_limits<double>::quiet_NaN();
    r.stepsDone = 3;
    r.baseline = -0.2;
    r.baselineStderr = 0.04;
    r.warning = "the held-out reading is below 0: the critic overfits";
    QVector<CurvePoint> curve{{1, 0.5, -0.5, 0.1}, {2, 0.75, -0.75, 0.2}, {3, 1.25, -1.25, 0.3}};
    curve[1].heldOut = 0.25;
    curve[2].heldOut = -0.12;
    curve[2].probe = 0.8125;
    curve[0].terms = {{"I_BO(x;y|x')", 0.125}};
    curve[2].terms = {{"I_BO(x;y|x')", 0.375}, {"I(x';y)", 1.5}};
    qint64 id = 0;
    QCOMPARE(recordRun(db, spec, r, curve, "window", &id), QString());

    const RunStore store(db);
    const std::optional<StoredRun> stored = store.find(id);
    QVERIFY(stored);
    const QJsonObject shown = storedRunJson(*stored);  // what `milab-cli show ID` prints
    QCOMPARE(shown.value("permutation_baseline").toObject().value("estimate").toDouble(), -0.2);
    QCOMPARE(shown.value("warning").toString(), r.warning);
    QCOMPARE(shown.value("samples").toInt(), 1000);
    QCOMPARE(shown.value("origin").toString(), QString("window"));
    const QVector<CurvePoint> back = store.curve(id);
    QCOMPARE(back.size(), 3);
    for (int i = 0; i < 3; ++i) {
      QCOMPARE(back[i].step, curve[i].step);
      QCOMPARE(back[i].estimate, curve[i].estimate);
      QCOMPARE(std::isnan(back[i].heldOut), std::isnan(curve[i].heldOut));
      if (!std::isnan(curve[i].heldOut)) QCOMPARE(back[i].heldOut, curve[i].heldOut);
      QCOMPARE(std::isnan(back[i].probe), std::isnan(curve[i].probe));
      QCOMPARE(back[i].terms.size(), curve[i].terms.size());
      for (int t = 0; t < curve[i].terms.size(); ++t) {  // in the order of first appearance
        QCOMPARE(back[i].terms[t].name, curve[i].terms[t].name);
        QCOMPARE(back[i].terms[t].value, curve[i].terms[t].value);
      }
    }
    QCOMPARE(back[2].probe, 0.8125);
  }

  // A database a newer milab wrote: refused naming both versions; neither reading nor recording changes a byte.
  // Version 2 (before record keys) is upgraded in place: its rows stay, each with no key, and new rows get one.
  void aVersionTwoDatabaseGainsRecordKeysKeepingItsRows() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    QCOMPARE(recordFinishedKsg(db), QString());
    rawRows(db, "DROP INDEX runs_record_key");
    rawRows(db, "ALTER TABLE runs DROP COLUMN record_key");
    rawRows(db, "UPDATE runs SET origin = 'version 2'");
    rawRows(db, "PRAGMA user_version = 2");
    QCOMPARE(recordFinishedKsg(db), QString());
    QCOMPARE(rawRows(db, "PRAGMA user_version").value(0).value(0).toInt(), kHistorySchemaVersion);
    const QList<QVariantList> keys = rawRows(db, "SELECT origin, record_key FROM runs ORDER BY id");
    QCOMPARE(keys.size(), 2);
    QCOMPARE(keys[0][0].toString(), QStringLiteral("version 2"));
    QVERIFY(keys[0][1].isNull());
    QCOMPARE(keys[1][1].toString().size(), 36);  // a UUID
  }

  void aNewerSchemaIsRefusedAndLeftAsItIs() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    QVERIFY(RunStore(db).error().isEmpty());
    rawRows(db, "PRAGMA user_version = 7");
    rawRows(db, "PRAGMA journal_mode = DELETE");  // one file to compare: no WAL beside it
    const QByteArray before = digest(db);
    const RunStore store(db);
    QVERIFY2(store.error().contains("its schema is version 7, written by a newer milab; this one reads versions up "
                                    "to 3"),
             qPrintable(store.error()));
    QVERIFY(!store.error().contains('\n'));
    QVERIFY(store.list().isEmpty());
    const QString recorded = recordRun(db, RunSpec(), RunResult(), {}, "window");
    QVERIFY2(recorded.contains("version 7"), qPrintable(recorded));
    QCOMPARE(digest(db), before);
  }

  // Read-only access (milab-cli history and show, issue 80) changes no byte: a version-1 file is read as version 1,
  // a WAL file is read without a checkpoint, a file that is not a milab history is refused, a missing one is not made.
  void readOnlyAccessChangesNoByte() {
    QTemporaryDir tmp;
    const QString v1 = tmp.filePath("v1.sqlite");
    QVERIFY(QFile::copy(MILAB_SOURCE_DIR "/tests/fixtures/history-v1.sqlite", v1));
    QFile::setPermissions(v1, QFile::ReadOwner | QFile::WriteOwner);
    QByteArray before = digest(v1);
    {
      const RunStore store(v1, RunStore::Access::ReadOnly);
      QCOMPARE(store.error(), QString());
      const QList<StoredRun> runs = store.list();
      QVERIFY(runs.size() >= 3);
      QVERIFY(runs[0].summary.isEmpty());
      QCOMPARE(store.curve(runs[0].id).size(), runs[0].stepsDone);
      QVERIFY(store.find(runs[0].id).has_value());
      QCOMPARE(store.check(), QString());
    }
    QCOMPARE(digest(v1), before);
    QCOMPARE(rawRows(v1, "PRAGMA user_version").value(0).value(0).toInt(), 0);  // still version 1

    const QString wal = tmp.filePath("wal.sqlite");
    QCOMPARE(recordFinishedKsg(wal), QString());
    before = digest(wal);
    {
      RunStore store(wal, RunStore::Access::ReadOnly);
      QCOMPARE(store.list().size(), 1);
      QVERIFY2(store.remove({1}).contains("opened to read only"), qPrintable(store.error()));
    }
    QCOMPARE(digest(wal), before);
    QCOMPARE(RunStore(wal).list().size(), 1);  // the refused delete deleted nothing

    const QString foreign = tmp.filePath("foreign.sqlite");
    rawRows(foreign, "CREATE TABLE runs(id INTEGER PRIMARY KEY, name TEXT)");
    before = digest(foreign);
    const RunStore other(foreign, RunStore::Access::ReadOnly);
    QVERIFY2(other.error().endsWith("(not a milab run history: no runs table with a task column)"),
             qPrintable(other.error()));
    QVERIFY(other.list().isEmpty());
    QCOMPARE(digest(foreign), before);
    QCOMPARE(rawRows(foreign, "SELECT count(*) FROM sqlite_master").value(0).value(0).toInt(), 1);

    const QString missing = tmp.filePath("none/history.sqlite");
    QVERIFY(RunStore(missing, RunStore::Access::ReadOnly).error().contains("no run history there"));
    QVERIFY(!QFileInfo::exists(missing) && !QFileInfo::exists(tmp.filePath("none")));
  }

  // A history in a folder the reader cannot write (a read-only mount, here a folder of root's read by the user
  // nobody): milab-cli history reads it as immutable, and no byte or side file appears.
  void aHistoryInAFolderNobodyCanWriteIsRead() {
    if (::geteuid() != 0 || QStandardPaths::findExecutable("runuser").isEmpty())
      QSKIP("needs root and runuser to read as another user");
    if (QProcess::execute("runuser", {"-u", "nobody", "--", "test", "-x", MILAB_CLI_PATH}) != 0)
      QSKIP("the user nobody cannot reach milab-cli here (a build inside a private folder)");
    QTemporaryDir tmp;
    QFile::setPermissions(tmp.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther |
                                          QFile::ExeOther | QFile::ReadGroup | QFile::ExeGroup);
    const QString db = tmp.filePath("history.sqlite");
    QCOMPARE(recordFinishedKsg(db), QString());
    rawRows(db, "PRAGMA wal_checkpoint(TRUNCATE)");
    QFile::remove(db + "-wal");
    QFile::remove(db + "-shm");
    QFile::setPermissions(db, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther | QFile::ReadGroup);
    const QByteArray before = digest(db);
    const QStringList entries = QDir(tmp.path()).entryList(QDir::Files);
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("HOME", tmp.path());
    p.setProcessEnvironment(env);
    p.start("runuser", {"-u", "nobody", "--", MILAB_CLI_PATH, "history", "--json", "--db", db});
    QVERIFY(p.waitForFinished(untilDoneMs()));
    QVERIFY2(p.exitCode() == 0, qPrintable(p.readAllStandardError()));
    QVERIFY(QJsonDocument::fromJson(p.readAllStandardOutput()).array().size() == 1);
    QCOMPARE(digest(db), before);
    QCOMPARE(QDir(tmp.path()).entryList(QDir::Files), entries);
  }

  // A table's permutation baseline and a method's warning: in grid.csv's columns, and back from the cell's
  // summary.json when a grid resumes (they were dropped there before).
  void aCellsBaselineAndWarningSurviveGridCsvAndResume() {
    QTemporaryDir tmp;
    RunSpec spec;
    spec.task = "data";
    spec.taskParams = {{"file", "table.csv"}};
    spec.method = "ksg";
    spec.steps = 1;
    RunResult r;
    r.status = RunStatus::Finished;
    r.estimate = 0.9;
    r.targetName = "I(x;y)";
    r.trueMi = std::numeric_limits<double>::quiet_NaN();
    r.baseline = 0.015;
    r.baselineStderr = 0.0;
    r.warning = "fewer than 100 distinct rows";
    QCOMPARE(writeRunFiles(tmp.filePath("cell"), spec, &r, {}), QStringList());
    RunResult back;
    QVERIFY(readFinishedSummary(tmp.filePath("cell/summary.json"), spec, &back));
    QCOMPARE(back.baseline, 0.015);
    QCOMPARE(back.baselineStderr, 0.0);
    QCOMPARE(back.warning, r.warning);
    QVERIFY(std::isnan(back.trueMi));
    GridCell cell;
    cell.name = "c";
    cell.spec = spec;
    QCOMPARE(writeGridCsv(tmp.filePath("grid.csv"), {CellResult{cell, back, true}}), QString());
    QFile csv(tmp.filePath("grid.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> rows = csv.readAll().trimmed().split('\n');
    const QStringList header = QString(rows[0]).split(','), row = QString(rows[1]).split(',');
    QCOMPARE(row.value(header.indexOf("baseline")), QString("0.015"));
    QCOMPARE(row.value(header.indexOf("baseline_stderr")), QString("0"));
    QCOMPARE(row.value(header.indexOf("warning")), r.warning);
  }

  // The curve blob's own round trip, format 2, and format 1 read as before (four float64 per point).
  void curveBlobsRoundTrip() {
    QVector<CurvePoint> curve{{1, 0.5, -0.5, 0.1}, {7, 2.0, -2.0, 0.7}};
    curve[1].heldOut = 1.75;
    curve[1].terms = {{"a", 1.0}};
    const QVector<CurvePoint> back = unpackCurveBlob(packCurveBlob(curve), 2);
    QCOMPARE(back.size(), 2);
    QCOMPARE(back[1].step, 7);
    QCOMPARE(back[1].heldOut, 1.75);
    QVERIFY(std::isnan(back[0].heldOut));
    QCOMPARE(back[1].terms.size(), 1);
    QCOMPARE(back[1].terms[0].name, QString("a"));
    QByteArray one;
    QDataStream out(&one, QIODevice::WriteOnly);
    out.setByteOrder(QDataStream::LittleEndian);
    out.setFloatingPointPrecision(QDataStream::DoublePrecision);
    out << 1.0 << 0.5 << -0.5 << 0.1 << 2.0 << 0.75 << -0.75 << 0.2;
    const QVector<CurvePoint> old = unpackCurveBlob(one, 1);
    QCOMPARE(old.size(), 2);
    QCOMPARE(old[1].step, 2);
    QCOMPARE(old[1].loss, -0.75);
    QVERIFY(std::isnan(old[1].heldOut));
  }
};

QTEST_GUILESS_MAIN(TestHistorySchema)
#include "test_history_schema.moc"
