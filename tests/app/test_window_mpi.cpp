// The window's MPI option for grids: the grid dialog offers it (process count, host file, each checked), the window
// starts mpirun with milab-cli, follows the cells as rank 0 writes them, and ends with the same grid.csv as
// `milab-cli run --jobs 1`; Stop ends a grid, here or under MPI, and keeps the cells that finished. In CI
// (MILAB_REQUIRE_MPI) the MPI parts cannot skip.
#include <qcustomplot.h>

#include <QAbstractButton>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>

#include "cli_process.h"
#include "engine/device.h"
#include "engine/experiment.h"
#include "engine/grid_progress.h"
#include "gui/main_window.h"
#include "gui/panels/grid_shape_dialog.h"
#include "gui/panels/history_panel.h"
#include "gui/views/mpi_grid_job.h"
#include "method/method_registry.h"
#include "results/run_store.h"
#include "screenshots.h"
#include "time_limits.h"

using namespace milab;

namespace {

QString writeFile(const QString& path, const QByteArray& text) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) qFatal("cannot write %s", qPrintable(path));
  return path;
}

// Four short cells, two methods by two K.
const QByteArray kGrid = R"({"task": "gaussian2", "dim": 2, "mi": 1, "steps": 40, "seed": 1, "device": "cpu",
                             "grid": {"K": [8, 16]}, "methods": [{"method": "infonce"}, {"method": "nwj"}]})";

}  // namespace

class TestWindowMpi : public QObject {
  Q_OBJECT
  MethodRegistry registry_;

  // Skips (or, in CI, fails) when this machine cannot run MPI from the window.
  bool mpiHere() {
    const QString why = mpiUnavailableReason();
    if (why.isEmpty()) return true;
    if (qEnvironmentVariableIsSet("MILAB_REQUIRE_MPI")) qFatal("MPI is required here, but %s", qPrintable(why));
    return false;
  }

 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  // "this machine" stays the default; MPI takes a process count and a host file that must be readable.
  void dialogOffersMpiAndChecksItsFields() {
    if (!mpiHere()) QSKIP("no MPI here (apt-get install openmpi-bin libopenmpi-dev)");
    Experiment figure2;
    QCOMPARE(readExperiment(":/experiments/figure2-top.json", &figure2), QString());
    GridShapeDialog shape(figure2, registry_);
    shape.show();
    auto* runner = shape.findChild<QComboBox*>("gridRunner");
    auto* processes = shape.findChild<QSpinBox*>("mpiProcesses");
    auto* hostFile = shape.findChild<QLineEdit*>("mpiHostFile");
    auto* summary = shape.findChild<QLabel*>("gridShapeSummary");
    QCOMPARE(runner->count(), 2);
    QCOMPARE(runner->currentIndex(), 0);
    QVERIFY(!shape.mpiLaunch());
    QVERIFY(!processes->isEnabled() && !hostFile->isEnabled());
    QVERIFY(qobject_cast<QStandardItemModel*>(runner->model())->item(1)->isEnabled());

    runner->setCurrentIndex(1);
    QVERIFY(processes->isEnabled() && hostFile->isEnabled());
    processes->setValue(3);
    QCOMPARE(shape.mpiLaunch()->processes, 3);
    QVERIFY2(summary->text().endsWith("on 3 MPI processes") || summary->text().contains("on 3 MPI processes ("),
             qPrintable(summary->text()));

    QTemporaryDir tmp;
    hostFile->setText(tmp.filePath("no-such-hostfile"));
    QVERIFY(
        shape.check().startsWith("MPI host file: '" + tmp.filePath("no-such-hostfile") + "' is not a readable file"));
    QVERIFY(summary->text().contains("MPI host file"));
    QTest::mouseClick(shape.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(shape.isVisible() && shape.result() != QDialog::Accepted);  // the error stays in the dialog
    saveScreenshot(shape, "grid-dialog-mpi-error");

    hostFile->setText(writeFile(tmp.filePath("hosts"), "localhost slots=4\n"));
    QCOMPARE(shape.check(), QString());
    QCOMPARE(shape.mpiLaunch()->hostFile, tmp.filePath("hosts"));
    runner->setCurrentIndex(0);
    QVERIFY(!shape.mpiLaunch());
    QCOMPARE(shape.check(), QString());  // a host file left behind does not matter on this machine
  }

  // Without mpirun the option is there, greyed, saying what is missing, and a grid asked for under MPI does not
  // start (nor claim its folder).
  void withoutMpirunTheOptionSaysWhy() {
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", "/nonexistent");
    Experiment figure2;
    QCOMPARE(readExperiment(":/experiments/figure2-top.json", &figure2), QString());
    GridShapeDialog shape(figure2, registry_);
    auto* runner = shape.findChild<QComboBox*>("gridRunner");
    QVERIFY(!qobject_cast<QStandardItemModel*>(runner->model())->item(1)->isEnabled());
    QVERIFY2(runner->itemText(1).contains("not on PATH") || runner->itemText(1).contains("no MPI"),
             qPrintable(runner->itemText(1)));
    QTemporaryDir tmp;
    MainWindow w(registry_);
    const QString err =
        w.openExperiment(writeFile(tmp.filePath("grid.json"), kGrid), tmp.filePath("out"), {}, MpiLaunch{2, {}});
    qputenv("PATH", path);
    QVERIFY2(err.startsWith("mpi: "), qPrintable(err));
    QVERIFY(!QFileInfo::exists(tmp.filePath("out")));
  }

  // The window runs the grid under mpirun -np 2: the plot fills, the same grid.csv as --jobs 1 (but for seconds),
  // and opened again into the same folder every cell is reused.
  void mpiGridFromTheWindowMatchesJobs1() {
    if (!mpiHere()) QSKIP("no MPI here");
    QTemporaryDir tmp;
    const QString path = writeFile(tmp.filePath("grid.json"), kGrid);
    const CliResult straight = cli({"run", path, "--steps", "30", "--jobs", "1", "--out", tmp.filePath("straight")});
    QCOMPARE(straight.code, 0);

    const QString out = tmp.filePath("mpi");
    MainWindow w(registry_);
    w.show();
    QCOMPARE(w.openExperiment(path, out, {{"steps", "30"}}, MpiLaunch{2, {}}), QString());
    QVERIFY(w.gridPlot()->isVisible());
    QVERIFY(!w.findChild<QAbstractButton*>("runButton")->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    const QString label = w.findChild<QLabel*>("resultLabel")->text();
    QVERIFY2(label.contains("grid finished") && label.contains("4 cells, 0 failed"), qPrintable(label));
    QCOMPARE(w.currentGrid()->endedCount(), 4);
    for (const CellResult& c : w.currentGrid()->results()) QCOMPARE(c.result.status, RunStatus::Finished);
    QCOMPARE(withoutSeconds(readAll(out + "/grid.csv")), withoutSeconds(readAll(tmp.filePath("straight/grid.csv"))));
    QVERIFY(w.gridPlot()->graphCount() >= 2);  // one line per method
    // Drawn in the grid's order, as the same grid run here draws it, whatever order the ranks ended the cells in
    // (issue 79: the bars came in completion order, in other colours).
    MainWindow here(registry_);
    QCOMPARE(here.openExperiment(path, tmp.filePath("here"), {{"steps", "30"}}), QString());
    QTRY_VERIFY_WITH_TIMEOUT(!here.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    const auto drawn = [](QCustomPlot* plot) {
      QStringList lines;
      for (int i = 0; i < plot->graphCount(); ++i) {
        QString line = plot->graph(i)->name() + " " + plot->graph(i)->pen().color().name();
        for (auto it = plot->graph(i)->data()->constBegin(); it != plot->graph(i)->data()->constEnd(); ++it)
          line += QStringLiteral(" %1").arg(it->key);
        lines << line;
      }
      return lines;
    };
    QCOMPARE(drawn(w.gridPlot()), drawn(here.gridPlot()));
    const QByteArray log = readAll(out + "/mpirun.log");
    QVERIFY2(log.contains("rank 1"), log.constData());  // both ranks ran cells
    saveScreenshot(w, "grid-window-mpi");

    QCOMPARE(w.openExperiment(path, out, {{"steps", "30"}}, MpiLaunch{2, {}}), QString());
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    QVERIFY2(w.findChild<QLabel*>("resultLabel")->text().contains("4 reused"),
             qPrintable(w.findChild<QLabel*>("resultLabel")->text()));
  }

  // Issue 44: a grid from the window, here and under MPI, then single runs from the form keep every row. The
  // History tab follows the grids' cells as they are recorded (it polls the database; nothing else tells it), and
  // once the window has closed the file passes SQLite's quick_check with all ten rows.
  void gridsAndRunsFromTheWindowKeepEveryRow() {
    if (!mpiHere()) QSKIP("no MPI here");
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    const QString path = writeFile(tmp.filePath("grid.json"), kGrid);
    {
      MainWindow w(registry_, db);
      w.show();
      HistoryPanel* history = w.history();
      auto* run = w.findChild<QAbstractButton*>("runButton");
      QCOMPARE(w.openExperiment(path, tmp.filePath("here"), {{"steps", "20"}}, std::nullopt), QString());
      QTRY_VERIFY_WITH_TIMEOUT(run->isEnabled(), untilDoneMs());
      QTRY_COMPARE_WITH_TIMEOUT(history->rowCount(), 4, untilDoneMs());
      QCOMPARE(w.openExperiment(path, tmp.filePath("mpi"), {{"steps", "20"}}, MpiLaunch{2, {}}), QString());
      QTRY_VERIFY_WITH_TIMEOUT(run->isEnabled(), untilDoneMs());
      QTRY_COMPARE_WITH_TIMEOUT(history->rowCount(), 8, untilDoneMs());  // cells another process recorded
      auto* method = w.findChild<QComboBox*>("methodCombo");
      method->setCurrentIndex(method->findData("infonce"));
      w.findChild<QSpinBox*>("param.steps")->setValue(20);
      w.findChild<QComboBox*>("param.device")->setCurrentText("cpu");
      for (int i = 0; i < 2; ++i) {
        QTest::mouseClick(run, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(run->isEnabled(), untilDoneMs());
      }
      QTRY_COMPARE_WITH_TIMEOUT(history->rowCount(), 10, untilDoneMs());
      QVERIFY2(!history->findChild<QLabel*>("historyMessage")->text().contains("cannot"),
               qPrintable(history->findChild<QLabel*>("historyMessage")->text()));
    }
    const RunStore store(db);
    QCOMPARE(store.check(), QString());
    const QList<StoredRun> runs = store.list();
    QCOMPARE(runs.size(), 10);
    QMap<QString, int> byOrigin;
    for (const StoredRun& r : runs) ++byOrigin[r.origin];
    QCOMPARE(byOrigin.value("grid " + tmp.filePath("here")), 4);
    QCOMPARE(byOrigin.value("grid " + tmp.filePath("mpi")), 4);
    QCOMPARE(byOrigin.value("window"), 2);
  }

  // Stop ends a grid, on this machine or under mpirun (which then ends): the short cell that finished keeps its
  // files, the long ones end cancelled (and are written) or never start, and grid.csv lists every cell.
  void stopEndsTheGridAndKeepsFinishedCells_data() {
    QTest::addColumn<bool>("mpi");
    QTest::newRow("this machine") << false;
    QTest::newRow("MPI") << true;
  }

  void stopEndsTheGridAndKeepsFinishedCells() {
    QFETCH(bool, mpi);
    if (mpi && !mpiHere()) QSKIP("no MPI here");
    QTemporaryDir tmp;
    const QString path = writeFile(tmp.filePath("grid.json"),
                                   R"({"task": "gaussian2", "dim": 2, "mi": 1, "K": 8, "method": "infonce",
                                       "device": "cpu", "grid": {"steps": [20, 200000, 300000]}})");
    const QString out = tmp.filePath("out");
    MainWindow w(registry_);
    w.show();
    QCOMPARE(w.openExperiment(path, out, {}, mpi ? std::optional<MpiLaunch>(MpiLaunch{2, {}}) : std::nullopt),
             QString());
    QTRY_VERIFY_WITH_TIMEOUT(w.currentGrid()->endedCount() >= 1, untilDoneMs());
    QTest::mouseClick(w.findChild<QAbstractButton*>("stopButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), timeLimitMs(30000));
    QVERIFY(w.currentGrid()->isDone());  // mpirun, if any, has ended
    const QString label = w.findChild<QLabel*>("resultLabel")->text();
    QVERIFY2(label.contains("grid cancelled"), qPrintable(label));
    const QList<CellResult>& cells = w.currentGrid()->results();
    QCOMPARE(cells[0].result.status, RunStatus::Finished);
    QVERIFY(QFile::exists(out + "/cells/" + cells[0].cell.name + "/summary.json"));
    QVERIFY(cells[1].result.status != RunStatus::Finished && cells[2].result.status != RunStatus::Finished);
    const QByteArray table = readAll(out + "/grid.csv");
    QCOMPARE(table.count('\n'), 4);
    QCOMPARE(table.count(",finished,"), 1);
    QVERIFY(!QFile::exists(out + "/.milab.lock"));  // the folder is free again
  }
};

QTEST_MAIN(TestWindowMpi)
#include "test_window_mpi.moc"
