// The run history in the window, driven through its widgets: runs of the window and of the runner both land in
// one database; the History tab lists and filters them, overlays two stored curves on the plot, and reopens a
// stored experiment in the form. With MILAB_SCREENSHOT_DIR set, the states are saved as PNGs to look at.
#include <qcustomplot.h>

#include <QAbstractButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QProcess>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "engine/device.h"
#include "gui/main_window.h"
#include "gui/panels/history_panel.h"
#include "gui/views/comparison_view.h"
#include "method/method_registry.h"
#include "results/run_store.h"
#include "screenshots.h"
#include "time_limits.h"

using namespace milab;

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
    QProcess cli;
    cli.start(MILAB_CLI_PATH, {"run", "--task", "gaussian2", "--dim", "4", "--method", "js", "--K", "16", "--steps",
                               "40", "--device", "cpu", "--db", db, "--out", tmp.filePath("cli")});
    QVERIFY(cli.waitForFinished(untilDoneMs()));
    QCOMPARE(cli.exitCode(), 0);

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
    QTRY_VERIFY_WITH_TIMEOUT(w.findChild<QAbstractButton*>("runButton")->isEnabled(), untilDoneMs());

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

 private:
  MethodRegistry registry_;
};

QTEST_MAIN(TestHistory)
#include "test_history.moc"
