// The run history in the window, driven through its widgets: runs of the window and of the runner both land in
// one database; the History tab lists and filters them, overlays two stored curves on the plot, and reopens a
// stored experiment in the form. With MILAB_SCREENSHOT_DIR set, the states are saved as PNGs to look at.
#include <qcustomplot.h>

#include <QAbstractButton>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "engine/device.h"
#include "gui/main_window.h"
#include "gui/panels/history_panel.h"
#include "gui/views/comparison_view.h"
#include "gui/views/mpi_grid_job.h"
#include "method/method_registry.h"
#include "results/run_store.h"
#include "screenshots.h"
#include "time_limits.h"

using namespace milab;

namespace {

// The runner records a short js run (gaussian2) in `db`, as another process would: its exit code (-1: it did not
// end).
int runnerRecords(const QString& db, const QString& out, int steps, int dim = 2, int K = 8) {
  QProcess cli;
  cli.start(MILAB_CLI_PATH,
            {"run", "--task", "gaussian2", "--dim", QString::number(dim), "--method", "js", "--K", QString::number(K),
             "--steps", QString::number(steps), "--device", "cpu", "--db", db, "--out", out});
  return cli.waitForFinished(untilDoneMs()) ? cli.exitCode() : -1;
}

}  // namespace

class TestHistory : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  void windowAndRunnerRunsAreRememberedFilteredOverlaidAndReopened() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    QCOMPARE(runnerRecords(db, tmp.filePath("cli"), 40, 4, 16), 0);

    MainWindow w(registry_, db);
    w.show();
    auto* method = w.findChild<QComboBox*>("methodCombo");
    method->setCurrentIndex(method->findData("infonce"));
    w.findChild<QComboBox*>("taskCombo")->setCurrentIndex(0);
    w.findChild<QSpinBox*>("param.dim")->setValue(4);
    w.findChild<QDoubleSpinBox*>("param.mi")->setValue(2.0);
    w.findChild<QSpinBox*>("param.K")->setValue(16);
    w.findChild<QSpinBox*>("param.steps")->setValue(60);
    w.findChild<QComboBox*>("param.device")->setCurrentText("cpu");
    w.findChild<QLineEdit*>("varyEdit")->setText("lr=0.001,0.0001");
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());

    // Both the runner's run and the window's two are in the database, and in the History tab.
    const QList<StoredRun> stored = RunStore(db).list();
    QCOMPARE(stored.size(), 3);
    QCOMPARE(stored[0].origin, QString("window"));
    QVERIFY(stored[2].origin.startsWith("cli "));
    HistoryPanel* history = w.history();
    w.comparison()->showPage(history);
    QTRY_COMPARE(history->rowCount(), 3);
    auto* methodFilter = history->findChild<QComboBox*>("historyMethod");
    methodFilter->setCurrentIndex(methodFilter->findData("infonce"));
    QCOMPARE(history->rowCount(), 2);
    methodFilter->setCurrentIndex(0);                                // any method
    history->findChild<QLineEdit*>("historyText")->setText("cli ");  // where it ran
    QCOMPARE(history->rowCount(), 1);
    history->findChild<QLineEdit*>("historyText")->clear();
    QCOMPARE(history->rowCount(), 3);
    saveScreenshot(w, "history");

    // Overlay the two stored infonce curves beside whatever is live.
    w.comparison()->clear();
    history->select({stored[0].id, stored[1].id});
    QCOMPARE(history->selectedIds().size(), 2);
    QTest::mouseClick(history->findChild<QAbstractButton*>("historyOverlay"), Qt::LeftButton);
    QCOMPARE(w.comparison()->overlayCount(), 2);
    auto* plot = w.findChild<QCustomPlot*>("runPlot");
    int overlaid = 0;
    for (int i = 0; i < plot->graphCount(); ++i) {
      const QString name = plot->graph(i)->name();
      if (name.startsWith("#") && name.contains(" infonce lr=") && !name.endsWith("(per step)")) {
        ++overlaid;
        QCOMPARE(plot->graph(i)->dataCount(), 60);
      }
    }
    QCOMPARE(overlaid, 2);
    // Each came back with the oracle the window read beside it (its row keeps it), its dotted line drawn again.
    int oracles = 0;
    for (int i = 0; i < plot->graphCount(); ++i)
      oracles += plot->graph(i)->name().startsWith("oracle critic (#") && plot->graph(i)->dataCount() > 0;
    QCOMPARE(oracles, 2);
    QVERIFY(RunStore(db).find(stored[0].id)->summary.value("readings").toObject().contains("oracle"));
    saveScreenshot(w, "history-overlay");

    // Reopen the runner's js run in the form.
    methodFilter->setCurrentIndex(0);
    w.comparison()->showPage(history);
    history->select({stored[2].id});
    QTest::mouseClick(history->findChild<QAbstractButton*>("historyReopen"), Qt::LeftButton);
    QCOMPARE(method->currentData().toString(), QString("js"));
    QCOMPARE(w.findChild<QSpinBox*>("param.steps")->value(), 40);

    // Delete and export act on the selection.
    QCOMPARE(history->exportSelection(tmp.filePath("runs.csv")), QString());
    QFile csv(tmp.filePath("runs.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll().count('\n'), 2);
    QCOMPARE(history->deleteSelection(), QString());
    QCOMPARE(RunStore(db).list().size(), 2);
  }

  // A finite-sample run's held-out readings come back with it from the history: overlaid, it draws its held-out
  // circles as its live run did (the history keeps every curve column since schema 2), and carries its summary.
  void aReopenedRunDrawsItsHeldOutReadings() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    RunSpec spec;
    spec.task = "gaussian2";
    spec.taskParams = {{"dim", 2}, {"mi", 1.0}};
    spec.method = "infonce";
    spec.methodParams = {{"K", 16}};
    spec.steps = 4;
    spec.samples = 1000;
    spec.evalEvery = 2;
    QCOMPARE(validateRunSpec(&spec, registry_), QString());
    RunResult r;
    r.status = RunStatus::Finished;
    r.estimate = 0.4;
    r.stderror = 0.05;
    r.targetName = "I(x;y)";
    r.trueMi = 1.0;
    r.stepsDone = 4;
    r.warning = "a warning the run gave";
    QVector<CurvePoint> curve{{1, 0.1, -0.1, 0.1}, {2, 0.2, -0.2, 0.2}, {3, 0.3, -0.3, 0.3}, {4, 0.5, -0.5, 0.4}};
    curve[1].heldOut = 0.25;
    curve[3].heldOut = 0.4;
    qint64 id = 0;
    QCOMPARE(recordRun(db, spec, r, curve, "window", &id), QString());

    MainWindow w(registry_, db);
    w.show();
    HistoryPanel* history = w.history();
    w.comparison()->showPage(history);
    QTRY_COMPARE(history->rowCount(), 1);
    history->select({id});
    QTest::mouseClick(history->findChild<QAbstractButton*>("historyOverlay"), Qt::LeftButton);
    QCOMPARE(w.comparison()->overlayCount(), 1);
    auto* plot = w.findChild<QCustomPlot*>("runPlot");
    QCPGraph* heldOut = nullptr;
    for (int i = 0; i < plot->graphCount(); ++i)
      if (plot->graph(i)->name().endsWith("(held-out reading)")) heldOut = plot->graph(i);
    QVERIFY(heldOut);
    QCOMPARE(heldOut->dataCount(), 2);
    QCOMPARE(heldOut->data()->at(0)->key, 2.0);
    QCOMPARE(heldOut->data()->at(1)->value, 0.4);
    saveScreenshot(w, "history-held-out");

    // A run on another task starts afresh: the overlays of this one go (issue 79: they stayed under its runs).
    auto* task = w.findChild<QComboBox*>("taskCombo");
    task->setCurrentIndex(task->findData("gaussian3"));
    auto* method = w.findChild<QComboBox*>("methodCombo");
    method->setCurrentIndex(method->findData("infonce"));
    w.findChild<QSpinBox*>("param.steps")->setValue(20);
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QCOMPARE(w.comparison()->overlayCount(), 0);
    QCOMPARE(w.comparison()->size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
  }

  // A failed run's reason, cut in its cell, is whole on hover and in the run's record, opened by a double click
  // (issue 79).
  void aFailedRunsWholeReasonIsOnHoverAndInItsRecord() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    RunSpec spec;
    spec.task = "gaussian2";
    spec.method = "infonce";
    spec.steps = 10;
    QCOMPARE(validateRunSpec(&spec, registry_), QString());
    RunResult r;
    r.status = RunStatus::Failed;
    r.targetName = "I(x;y)";
    r.trueMi = 2.0;
    r.reason = "training diverged: non-finite loss at step 7 " + QString(200, 'x') + " the end of the reason";
    qint64 id = 0;
    QCOMPARE(recordRun(db, spec, r, {}, "window", &id), QString());
    MainWindow w(registry_, db);
    w.show();
    HistoryPanel* history = w.history();
    w.comparison()->showPage(history);
    QTRY_COMPARE(history->rowCount(), 1);
    auto* table = history->findChild<QTableWidget*>("historyTable");
    const int last = table->columnCount() - 1;
    QVERIFY(table->item(0, last)->toolTip().endsWith("the end of the reason"));
    const QPoint cell = table->visualItemRect(table->item(0, 1)).center();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, cell);  // the view opens what it pressed
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, cell);
    auto* details = w.findChild<QDialog*>("runDetails");
    QVERIFY(details);
    QCOMPARE(details->windowTitle(), QStringLiteral("Run %1").arg(id));
    const QString text = details->findChild<QPlainTextEdit*>()->toPlainText();
    QVERIFY2(text.startsWith(QStringLiteral("run %1: infonce on gaussian2, failed\n").arg(id)) &&
                 text.contains(r.reason),
             qPrintable(text));
    details->close();
  }

  // Every cell of a grid started from the window is recorded, on this machine and under mpirun, and so is the
  // single run after it: the grid of this machine recorded nothing, and under MPI the ranks wrote wherever their own
  // default pointed while the window's history stopped recording after the grid.
  void gridCellsAndTheRunAfterThemAreRecorded_data() {
    QTest::addColumn<bool>("mpi");
    QTest::newRow("this machine") << false;
    QTest::newRow("mpirun -np 2") << true;
  }
  void gridCellsAndTheRunAfterThemAreRecorded() {
    QFETCH(bool, mpi);
    if (mpi && !mpiUnavailableReason().isEmpty()) {
      if (qEnvironmentVariableIsSet("MILAB_REQUIRE_MPI"))
        QFAIL(qPrintable("MPI is required here: " + mpiUnavailableReason()));
      QSKIP("no MPI here");
    }
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    const QString grid = tmp.filePath("grid.json");
    {
      QFile f(grid);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(R"({"task": "gaussian2", "dim": 2, "mi": 1, "steps": 30, "seed": 1, "device": "cpu",
                  "grid": {"K": [8, 16]}, "methods": [{"method": "infonce"}, {"method": "nwj"}]})");
    }
    MainWindow w(registry_, db);
    w.show();
    const std::optional<MpiLaunch> launch = mpi ? std::optional<MpiLaunch>(MpiLaunch{2, {}}) : std::nullopt;
    QCOMPARE(w.openExperiment(grid, tmp.filePath("out"), {}, launch), QString());
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    QVERIFY2(w.findChild<QLabel*>("resultLabel")->text().contains("4 cells, 0 failed"),
             qPrintable(w.findChild<QLabel*>("resultLabel")->text()));

    w.findChild<QSpinBox*>("param.steps")->setValue(20);
    w.findChild<QComboBox*>("param.device")->setCurrentText("cpu");
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());

    const QList<StoredRun> stored = RunStore(db).list();
    QStringList origins;
    for (const StoredRun& r : stored) origins << r.origin.section(' ', 0, 0);
    QCOMPARE(origins.count("grid"), 4);
    QCOMPARE(origins.count("window"), 1);
    QCOMPARE(stored.size(), 5);
    QCOMPARE(stored.first().origin, QString("window"));  // the newest
    QVERIFY2(w.comparison()->historyWarning().isEmpty(), qPrintable(w.comparison()->historyWarning()));
    w.comparison()->showPage(w.history());
    QTRY_COMPARE(w.history()->rowCount(), 5);
  }

  // Another process writing the database while the window holds it open (WAL: readers and one writer at once)
  // leaves the window's store usable: the runner's rows appear in the History tab and the window's next run is
  // recorded beside them.
  void anotherWriterLeavesTheWindowsStoreUsable() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    MainWindow w(registry_, db);
    w.show();
    w.comparison()->showPage(w.history());
    QCOMPARE(w.history()->rowCount(), 0);
    for (int i = 0; i < 2; ++i) QCOMPARE(runnerRecords(db, tmp.filePath(QString("cli%1").arg(i)), 20), 0);
    w.findChild<QSpinBox*>("param.steps")->setValue(20);
    w.findChild<QComboBox*>("param.device")->setCurrentText("cpu");
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    QVERIFY2(w.comparison()->historyWarning().isEmpty(), qPrintable(w.comparison()->historyWarning()));
    QTRY_COMPARE(w.history()->rowCount(), 3);
    QCOMPARE(RunStore(db).list().size(), 3);

    // The tab follows the database (a poll): a run another process records appears without a click, and the
    // rows the user selected stay selected through the refresh.
    const qint64 oldest = RunStore(db).list().last().id;
    w.history()->select({oldest});
    QCOMPARE(runnerRecords(db, tmp.filePath("cli-more"), 20), 0);
    QTRY_COMPARE_WITH_TIMEOUT(w.history()->rowCount(), 4, untilDoneMs());
    QCOMPARE(w.history()->selectedIds(), QList<qint64>{oldest});
  }

  // Issue 44: a database that breaks under the window is said, in red under the History table and in the status
  // bar, with SQLite's reason (it showed "0 runs shown" and nothing else), the rows last read staying; and the
  // runner's `history` on that file exits 2 with the reason instead of printing an empty table.
  void aBrokenDatabaseIsSaidNotHidden() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    QCOMPARE(runnerRecords(db, tmp.filePath("cli"), 200), 0);
    MainWindow w(registry_, db);
    w.show();
    w.comparison()->showPage(w.history());
    QCOMPARE(w.history()->rowCount(), 1);
    auto* message = w.history()->findChild<QLabel*>("historyMessage");
    QVERIFY(message->text().startsWith("1 run shown"));
    {
      QFile f(db);  // page 2, the runs table's root: garbage
      QVERIFY(f.open(QIODevice::ReadWrite) && f.seek(4096));
      f.write(QByteArray(4096, char(0x5a)));
    }
    QTRY_VERIFY_WITH_TIMEOUT(message->text().contains("malformed"), untilDoneMs());  // the next poll
    QVERIFY(message->styleSheet().contains("color"));
    QCOMPARE(w.history()->rowCount(), 1);  // what was read stays
    QVERIFY2(w.statusBar()->currentMessage().startsWith("history: cannot use '" + db + "'"),
             qPrintable(w.statusBar()->currentMessage()));
    saveScreenshot(w, "history-broken");

    QProcess history;
    history.start(MILAB_CLI_PATH, {"history", "--db", db});
    QVERIFY(history.waitForFinished(untilDoneMs()));
    QCOMPARE(history.exitCode(), 2);
    const QString err = QString::fromLocal8Bit(history.readAllStandardError());
    QVERIFY2(err.count('\n') == 1 && err.contains("history: cannot use"), qPrintable(err));
    QVERIFY(history.readAllStandardOutput().isEmpty());
  }

 private:
  MethodRegistry registry_;
};

QTEST_MAIN(TestHistory)
#include "test_history.moc"
