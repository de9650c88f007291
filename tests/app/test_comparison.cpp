// The comparison set in the window, driven through its real widgets: a three-method set trains and draws three
// curves with their ceilings and targets; one run stopped alone keeps its result; the table holds every run;
// seeds are drawn as a mean with a band; a saved set reopens, and the runner reproduces its numbers; the plot
// previews the configured run, rescales when runs end, and the task chart follows the form; a staircase draws
// its step line; closing the window while runs train returns at once; View > Units > bits relabels the plot, the
// table, the result line and the history. With MILAB_SCREENSHOT_DIR set, each state is also saved as a PNG to look
// at.
#include <qcustomplot.h>

#include <QAbstractButton>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "engine/device.h"
#include "engine/run_set.h"
#include "gui/comparison_set.h"
#include "gui/main_window.h"
#include "gui/panels/experiment_panel.h"
#include "gui/panels/history_panel.h"
#include "gui/views/comparison_view.h"
#include "method/method_registry.h"
#include "plot/run_plot.h"
#include "results/reading_words.h"
#include "results/run_store.h"
#include "screenshots.h"
#include "time_limits.h"

using namespace milab;

class TestComparison : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  // The set's model without a widget: runs and their oracles report their points and ends once each, the labels
  // and seed groups follow what differs, the CSV has a row per run, and a set is never emptied while it trains.
  void theSetRunsWithoutWidgets() {
    ComparisonSet set(registry_, 2);
    QList<RunSpec> specs;
    for (int seed : {1, 2}) {
      RunSpec spec;
      QCOMPARE(runSpecFromFlat({{"task", "gaussian2"},
                                {"dim", 2},
                                {"mi", 1.0},
                                {"method", "infonce"},
                                {"K", 16},
                                {"steps", 40},
                                {"seed", seed},
                                {"device", "cpu"}},
                               registry_, &spec),
               QString());
      QCOMPARE(set.add(spec, true), int(specs.size()));
      specs << spec;
    }
    QVERIFY(set.onTaskOf(specs.first()));
    RunSpec other = specs.first();
    other.taskParams.insert("mi", 2.0);
    QVERIFY(!set.onTaskOf(other));
    QList<int> points(2, 0), ends(2, 0), oracles(2, 0);
    bool done = false;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
          const ComparisonSet::Poll poll = set.poll();
          for (int i = 0; i < poll.runs.size(); ++i) {
            points[i] += int(poll.runs[i].points.size());
            ends[i] += poll.runs[i].ended.has_value();
            oracles[i] += poll.runs[i].oracle.has_value() && poll.runs[i].oracle->status == RunStatus::Finished;
          }
          return done = poll.done;
        }(),
        untilDoneMs());
    QVERIFY(!set.running());
    QCOMPARE(ends, QList<int>({1, 1}));
    QCOMPARE(oracles, QList<int>({1, 1}));
    QCOMPARE(points, QList<int>({int(set.run(0).curve().size()), int(set.run(1).curve().size())}));
    QVERIFY(points[0] > 0);
    QCOMPARE(set.status(0), RunStatus::Finished);
    QVERIFY(set.oracle(0) && set.oracle(0)->spec().methodParams.value("critic") == "oracle");
    const QStringList labels = set.labels();
    QCOMPARE(labels.size(), 2);
    QVERIFY2(labels[0] != labels[1] && labels[0].contains("seed"), qPrintable(labels.join(" | ")));
    const auto groups = set.seedGroups();
    QCOMPARE(groups.size(), 1);
    QCOMPARE(groups.first().second, QList<int>({0, 1}));
    QTemporaryDir dir;
    QCOMPARE(set.exportCsv(dir.filePath("set.csv")), QString());
    QFile csv(dir.filePath("set.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList rows = QString::fromUtf8(csv.readAll()).trimmed().split('\n');
    QCOMPARE(rows.size(), 3);
    QVERIFY2(rows[1].startsWith("1,infonce,") && rows[1].contains(",finished,"), qPrintable(rows[1]));

    RunSpec slow = specs.first();
    slow.steps = 1000000;
    set.add(slow, false);
    set.poll();
    QVERIFY(set.running());
    QVERIFY(!set.reset(1));  // what trains is never dropped
    QCOMPARE(set.size(), 3);
    set.stop(2);
    QTRY_VERIFY_WITH_TIMEOUT(set.poll().done, untilDoneMs());
    QCOMPARE(set.status(2), RunStatus::Cancelled);
    QVERIFY(set.reset(1));
    QCOMPARE(set.size(), 0);
    QCOMPARE(set.exportCsv(dir.filePath("empty.csv")), QString("export: the set is empty; run something first"));
  }

  // Before anything trains the plot shows the configured run's target and ceiling; the task chart shows the
  // split of gaussian3's MI and follows the form.
  void previewShowsTargetAndCeilingBeforeRun() {
    MainWindow w(registry_);
    w.show();
    QTRY_VERIFY(hasGraph(w, "true I(x,x';y) = 10.00"));  // the default: demi on gaussian3, MI = 10
    {
      QStringList names;
      for (int i = 0; i < w.plot()->widget()->graphCount(); ++i) names << w.plot()->widget()->graph(i)->name();
      QVERIFY2(hasGraph(w, "ceiling 2 log(K/2)"), qPrintable(names.join(" | ")));
    }
    QVERIFY(!w.currentRun());
    auto* chart = w.findChild<QCustomPlot*>("taskChart");
    QVERIFY(chart);
    const QString before = titleOf(chart);
    QVERIFY2(before.startsWith("I(x,x';y) = 10.00 = I(x';y)"), qPrintable(before));
    QCOMPARE(chart->plottableCount(), 3);  // I(x'_i;y_i), I(x_i;y_i|x'_i) stacked, alpha_i, written as a reader would
    QStringList names;
    for (int i = 0; i < chart->plottableCount(); ++i) names << chart->plottable(i)->name();
    QCOMPARE(names,
             QStringList({"I(x\u2032\u1d62; y\u1d62)", "I(x\u1d62; y\u1d62 | x\u2032\u1d62)", "\u03b1\u1d62 (right)"}));
    w.findChild<QDoubleSpinBox*>("param.mi")->setValue(6);
    QTRY_VERIFY(titleOf(chart).startsWith("I(x,x';y) = 6.00"));
    QTRY_VERIFY(hasGraph(w, "true I(x,x';y) = 6.00"));
    saveScreenshot(w, "preview");
    // The chart is short: its value ticks (both axes) read apart, also for gaussian2's even split (a low, flat
    // chart that had seven labels in 60 px).
    const auto ticksReadApart = [chart]() -> QString {
      chart->replot();
      for (QCPAxis* axis : {chart->yAxis, chart->yAxis2}) {
        if (!axis->visible()) continue;
        const QVector<double> ticks = axis->tickVector();
        if (ticks.size() < 2) return "fewer than 2 ticks";
        const int lineHeight = QFontMetrics(axis->tickLabelFont()).height();
        for (int t = 1; t < ticks.size(); ++t)
          if (const double gap = std::abs(axis->coordToPixel(ticks[t]) - axis->coordToPixel(ticks[t - 1]));
              gap < 1.5 * lineHeight)
            return QStringLiteral("ticks %1 and %2 are %3 px apart").arg(ticks[t - 1]).arg(ticks[t]).arg(gap);
      }
      return {};
    };
    QCOMPARE(ticksReadApart(), QString());
    saveScreenshot(*chart, "task-chart-gaussian3");
    auto* task = w.findChild<QComboBox*>("taskCombo");
    task->setCurrentIndex(task->findData("gaussian2"));
    QTRY_VERIFY(titleOf(chart).startsWith("I(x;y)"));
    QCOMPARE(ticksReadApart(), QString());
    saveScreenshot(*chart, "task-chart-gaussian2");
  }

  void threeMethodSetDrawsThreeCurvesWithCeilings() {
    MainWindow w(registry_);
    w.show();
    configure(w, "infonce", 0, 4, 16, 150);
    tick(w, {"interpolated", "nwj"});
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    ComparisonView* set = w.comparison();
    QCOMPARE(set->size(), 3);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    for (int i = 0; i < 3; ++i) {
      QCOMPARE(set->status(i), RunStatus::Finished);
      QCOMPARE(w.plot()->pointCount(i), 150);
    }
    // One curve per run, named by its method; each ceiling in its run's colour; the shared target once.
    for (const char* m : {"infonce", "interpolated", "nwj"}) QVERIFY2(hasGraph(w, m), m);
    QVERIFY(hasGraph(w, "ceiling log K = 2.77"));
    QVERIFY(hasGraph(w, "ceiling 1 + log((K-1)/alpha) = 4.40"));
    QCOMPARE(countGraphs(w, "true I(x;y) = 2.00"), 1);
    // The table: every run, its estimate, target and status.
    auto* table = w.findChild<QTableWidget*>("runTable");
    QCOMPARE(table->rowCount(), 3);
    for (int r = 0; r < 3; ++r) {
      QVERIFY(table->item(r, 3)->text().contains("±"));
      QCOMPARE(table->item(r, 4)->text(), QString("I(x;y) = 2.000"));
      QVERIFY(table->item(r, 8)->text().startsWith("finished"));
    }
    // Sorting by estimate orders the rows by their numbers, not their text.
    table->sortItems(3);
    for (int r = 1; r < 3; ++r)
      QVERIFY(table->item(r - 1, 3)->text().section(' ', 0, 0).toDouble() <=
              table->item(r, 3)->text().section(' ', 0, 0).toDouble());
    // Each run's curve stops at its last step: the view fits the data once every run ended.
    QCOMPARE(w.findChild<QCustomPlot*>("runPlot")->xAxis->range().upper, 150.0);
    saveScreenshot(w, "three-methods");
    // The figure tab draws the bar chart (only the method varies), one bar per run.
    set->showFigure(true);
    auto* figure = w.findChild<QCustomPlot*>("setFigure");
    int bars = 0;
    for (int i = 0; i < figure->plottableCount(); ++i) bars += qobject_cast<QCPBars*>(figure->plottable(i)) != nullptr;
    QCOMPARE(bars, 3);
    saveScreenshot(w, "three-methods-figure");
    // Hiding a run hides its curves.
    QTableWidgetItem* show = nullptr;
    for (int r = 0; r < 3; ++r)
      if (table->item(r, 1)->text() == "nwj") show = table->item(r, 0);
    show->setCheckState(Qt::Unchecked);
    QVERIFY(!graphNamed(w, "nwj")->visible());

    QTemporaryDir tmp;
    QCOMPARE(set->exportTable(tmp.filePath("runs.csv")), QString());
    QCOMPARE(readAll(tmp.filePath("runs.csv")).count('\n'), 4);
  }

  // DoE, CLUB and KSG join a set like the others (issue 14): CLUB's legend says it reads from above, and KSG,
  // which trains nothing, is one point with its error bar instead of an empty curve.
  void estimatorsBeyondContrastiveBoundsJoinTheSet() {
    MainWindow w(registry_);
    w.show();
    configure(w, "infonce", 0, 2, 16, 300);
    tick(w, {"doe", "club", "ksg"});
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    ComparisonView* set = w.comparison();
    QCOMPARE(set->size(), 4);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    int ksg = -1;
    for (int i = 0; i < 4; ++i) {
      QCOMPARE(set->status(i), RunStatus::Finished);
      if (set->specs()[i].method == "ksg") ksg = i;
    }
    QCOMPARE(w.plot()->pointCount(ksg), 0);
    QCPGraph* point = graphNamed(w, QString());
    for (int i = 0; i < w.plot()->widget()->graphCount(); ++i)
      if (w.plot()->widget()->graph(i)->name().startsWith("ksg: ")) point = w.plot()->widget()->graph(i);
    QVERIFY(point && point->name().contains("no training"));
    QCOMPARE(point->dataCount(), 1);
    QCOMPARE(point->lineStyle(), QCPGraph::lsNone);
    int bars = 0;
    for (int i = 0; i < w.plot()->widget()->plottableCount(); ++i)
      bars += qobject_cast<QCPErrorBars*>(w.plot()->widget()->plottable(i)) != nullptr;
    QCOMPARE(bars, 1);
    // The point sits inside the view, at the right of the curves (300 steps).
    const QCPRange x = w.plot()->widget()->xAxis->range();
    const double key = point->data()->begin()->key;
    QVERIFY(key > 0.5 * x.upper && key < x.upper);
    QVERIFY(hasGraph(w, "club (upper bound)"));
    saveScreenshot(w, "beyond-contrastive");
  }

  // KSG trains nothing: a set that varies steps labels its infonce rows by them and its KSG rows by nothing.
  void aMethodThatTrainsNothingIsNotLabelledByTrainingKeys() {
    MainWindow w(registry_);
    w.show();
    configure(w, "infonce", 0, 2, 16, 100);
    tick(w, {"ksg"});
    w.findChild<QLineEdit*>("varyEdit")->setText("steps=100,120");
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QCOMPARE(w.comparison()->size(), 4);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    QTableWidget* table = w.comparison()->table();
    QStringList infonce, ksg;
    for (int row = 0; row < table->rowCount(); ++row)
      (table->item(row, 1)->text() == "ksg" ? ksg : infonce) << table->item(row, 2)->text();
    infonce.sort();
    QCOMPARE(infonce, QStringList({"steps=100", "steps=120"}));
    QCOMPARE(ksg, QStringList({"", ""}));
    // A row clicked shows that run's result, not only the last run's.
    auto* result = w.findChild<QLabel*>("resultLabel");
    for (int row = 0; row < table->rowCount(); ++row)
      if (table->item(row, 1)->text() == "infonce" && table->item(row, 2)->text() == "steps=100") {
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(row, 1)).center());
        break;
      }
    QVERIFY2(result->text().contains("infonce steps=100:") && result->text().contains("100 steps in"),
             qPrintable(result->text()));
    QCOMPARE(keysTheRunReads({"K", "early_stopping", "eval_every", "steps"}, false), QStringList({"K"}));
    QCOMPARE(keysTheRunReads({"K", "steps"}, true), QStringList({"K", "steps"}));
  }

  // At the window's own size (1280 x 720) the panel scrolls: no field of any method's form is squeezed below the
  // height it needs (every field was a few pixels high once mmg's form grew, its text cut), nor a two-line label.
  void everyFieldKeepsItsHeightAndThePanelScrolls() {
    MainWindow w(registry_);
    w.show();
    QCOMPARE(w.size(), QSize(1280, 720));
    auto* method = w.findChild<QComboBox*>("methodCombo");
    for (const char* id : {"mmg", "nwj", "demi"}) {
      method->setCurrentIndex(method->findData(id));
      QCoreApplication::processEvents();
      int fields = 0;
      for (QWidget* field : w.findChildren<QWidget*>(QRegularExpression("^param\\.")))
        if (field->isVisibleTo(&w)) {
          ++fields;
          QVERIFY2(field->height() >= field->minimumSizeHint().height(),
                   qPrintable(QStringLiteral("%1 (%2): %3 px of %4")
                                  .arg(field->objectName(), id)
                                  .arg(field->height())
                                  .arg(field->minimumSizeHint().height())));
        }
      QVERIFY(fields > 20);
      for (QLabel* label : w.findChildren<QLabel*>(QRegularExpression("^label\\.")))  // nor any row's label cut
        if (label->isVisibleTo(&w))
          QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                   qPrintable(QStringLiteral("%1 (%2): %3 px of %4")
                                  .arg(label->objectName(), id)
                                  .arg(label->height())
                                  .arg(label->heightForWidth(label->width()))));
    }
    QVERIFY(w.findChild<QScrollArea*>("panelScroll")->verticalScrollBar()->maximum() > 0);
  }

  // Picking bmi's recipe in the run settings writes its values into the fields (issue 45): the user sees each one,
  // may change any, and another field's edit keeps that change; a new method's form gets the recipe's values.
  void pickingTheBmiRecipeFillsTheFields() {
    MainWindow w(registry_);
    w.show();
    configure(w, "infonce", 0, 4, 16, 300);
    auto* recipe = w.findChild<QComboBox*>("param.recipe");
    QVERIFY(recipe);
    recipe->setCurrentIndex(recipe->findText("bmi"));
    QCOMPARE(w.findChild<QSpinBox*>("param.steps")->value(), 10000);
    QCOMPARE(w.findChild<QSpinBox*>("param.samples")->value(), 5000);
    QCOMPARE(w.findChild<QSpinBox*>("param.K")->value(), 256);
    QCOMPARE(w.findChild<QDoubleSpinBox*>("param.lr")->value(), 0.1);
    QCOMPARE(w.findChild<QComboBox*>("param.critic")->currentText(), QString("joint"));
    QCOMPARE(w.findChild<QComboBox*>("param.report")->currentText(), QString("best"));
    QCOMPARE(w.findChild<QComboBox*>("param.held_out")->currentText(), QString("whole"));
    w.findChild<QDoubleSpinBox*>("param.lr")->setValue(0.01);
    w.findChild<QSpinBox*>("param.steps")->setValue(2000);
    QCOMPARE(w.findChild<QDoubleSpinBox*>("param.lr")->value(), 0.01);
    auto* method = w.findChild<QComboBox*>("methodCombo");
    method->setCurrentIndex(method->findData("nwj"));
    // The lr the user typed stays, as the runner keeps a given key over the recipe's (issue 79); the recipe's critic
    // comes with the new method.
    QCOMPARE(w.findChild<QDoubleSpinBox*>("param.lr")->value(), 0.01);
    QVERIFY(w.findChild<QLabel*>("methodKeysNote")->text().contains("kept lr = 0.01"));
    QCOMPARE(w.findChild<QComboBox*>("param.critic")->currentText(), QString("joint"));
    QCOMPARE(w.findChild<QSpinBox*>("param.steps")->value(), 2000);  // the settings keep the user's value
    saveScreenshot(w, "bmi-recipe-picked");
    // auto (the default): the lab's recipe (bmi's at lr 0.01 with the method's transform) once the run reads a finite
    // set, the user's N kept; the defaults back when it reads fresh batches again.
    recipe->setCurrentIndex(recipe->findText("none"));
    QCOMPARE(w.findChild<QDoubleSpinBox*>("param.lr")->value(), 5e-4);
    QCOMPARE(w.findChild<QComboBox*>("param.critic")->currentText(), QString("learned"));
    w.findChild<QSpinBox*>("param.samples")->setValue(0);
    recipe->setCurrentIndex(recipe->findText("auto"));
    QCOMPARE(w.findChild<QDoubleSpinBox*>("param.lr")->value(), 5e-4);
    w.findChild<QSpinBox*>("param.samples")->setValue(3000);
    QCOMPARE(w.findChild<QDoubleSpinBox*>("param.lr")->value(), 0.01);
    QCOMPARE(w.findChild<QSpinBox*>("param.samples")->value(), 3000);
    QCOMPARE(w.findChild<QComboBox*>("param.report")->currentText(), QString("best"));
    QCOMPARE(w.findChild<QComboBox*>("param.transform")->currentText(), QString("tails"));
    // NWJ's and a diffusion estimator's lab recipe map heavy tails only; a critic not measured with it brings its
    // asinh back, and a transform the user picked stays through a change of method.
    auto* transform = w.findChild<QComboBox*>("param.transform");
    method->setCurrentIndex(method->findData("mmg"));
    QCOMPARE(transform->currentText(), QString("tails"));
    QCoreApplication::processEvents();  // the form's new rows laid out, so the scroll finds the field
    w.findChild<QScrollArea*>("panelScroll")->ensureWidgetVisible(transform, 50, 200);
    saveScreenshot(w, "lab-recipe-tails");
    method->setCurrentIndex(method->findData("js"));
    QCOMPARE(transform->currentText(), QString("asinh"));
    transform->setCurrentIndex(transform->findText("ranks"));
    method->setCurrentIndex(method->findData("minde-c"));
    QCOMPARE(transform->currentText(), QString("ranks"));
    method->setCurrentIndex(method->findData("nwj"));
    transform->setCurrentIndex(transform->findText("asinh"));
    w.findChild<QSpinBox*>("param.samples")->setValue(0);
    QCOMPARE(w.findChild<QDoubleSpinBox*>("param.lr")->value(), 5e-4);
    QCOMPARE(w.findChild<QComboBox*>("param.report")->currentText(), QString("last"));
    QCOMPARE(w.findChild<QComboBox*>("param.transform")->currentText(), QString("none"));
  }

  // Stop one run: it ends cancelled with what it measured; the others go on; the plot then fits its steps.
  void oneRunStoppedAloneKeepsItsResult() {
    MainWindow w(registry_);
    w.show();
    configure(w, "infonce", 0, 4, 16, 1000000);
    w.findChild<QLineEdit*>("varyEdit")->setText("K=8,16");
    w.findChild<QSpinBox*>("jobsSpin")->setValue(2);
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    ComparisonView* set = w.comparison();
    QCOMPARE(set->size(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(w.plot()->pointCount(0) > 50 && w.plot()->pointCount(1) > 50, untilDoneMs());
    auto* table = w.findChild<QTableWidget*>("runTable");
    table->selectRow(0);
    const int stopped = table->item(0, 0)->data(Qt::UserRole + 1).toInt();
    QTest::mouseClick(w.findChild<QAbstractButton*>("stopSelectedButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(set->status(stopped), RunStatus::Cancelled, 2000);
    QCOMPARE(set->status(1 - stopped), RunStatus::Running);
    const RunResult kept = set->run(stopped)->result();
    QVERIFY(kept.stepsDone > 50);
    QVERIFY(std::isfinite(kept.estimate) && kept.estimate != 0);
    QTest::mouseClick(w.findChild<QAbstractButton*>("stopButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), 5000);
    QTRY_VERIFY(w.findChild<QCustomPlot*>("runPlot")->xAxis->range().upper < 1000000);
    QVERIFY(w.findChild<QLabel*>("resultLabel")->text().contains("cancelled"));
    saveScreenshot(w, "stopped");
    // Clear set: the runs, their curves and the line that described them all go.
    QTest::mouseClick(w.findChild<QAbstractButton*>("clearSetButton"), Qt::LeftButton);
    QCOMPARE(set->size(), 0);
    QCOMPARE(table->rowCount(), 0);
    QCOMPARE(w.findChild<QLabel*>("resultLabel")->text(), QString());
  }

  // Seeds of one configuration: one mean curve with a min-max band.
  void seedsAreDrawnAsAMeanWithABand() {
    MainWindow w(registry_);
    w.show();
    configure(w, "nwj", 0, 4, 16, 120);
    w.findChild<QLineEdit*>("varyEdit")->setText("seed=1,2,3");
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    QCPGraph* mean = graphNamed(w, "nwj (mean of 3 seeds, band min-max)");
    QVERIFY(mean);
    QCOMPARE(mean->dataCount(), 120);
    QVERIFY(graphNamed(w, "nwj (max)")->channelFillGraph() == graphNamed(w, "nwj (min)"));
    auto* table = w.findChild<QTableWidget*>("runTable");
    QCOMPARE(table->rowCount(), 3);
    for (int r = 0; r < 3; ++r)  // every row in the colour the group is drawn in (issue 79)
      QCOMPARE(table->item(r, 0)->foreground().color(), mean->pen().color());
    saveScreenshot(w, "seeds");
    // A seed run again joins its group as one more run, not one more seed.
    w.findChild<QLineEdit*>("varyEdit")->setText("seed=2");
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    QCOMPARE(table->rowCount(), 4);
    QVERIFY(graphNamed(w, "nwj (mean of 4 runs, 3 seeds, band min-max)"));
  }

  // Issue 44: a seed group is drawn from its first run (one run at a time, the second seed has not started: the
  // group drew nothing until it did), the mean over the members that reached each point; and every member's
  // ceilings and oracle are in the group's colour, the one its legend entry shows.
  void aSeedGroupIsDrawnFromItsFirstRunInItsColour() {
    PlotOfRuns bench;
    QCustomPlot& widget = bench.widget;
    RunPlot& plot = bench.plot;
    const RunSpec& spec = bench.spec;
    const RunResult known = knownResult(2, 16);
    for (int i = 0; i < 2; ++i) plot.addRun(QStringLiteral("seed %1").arg(i + 1), seriesStyle(i), spec, known);
    plot.setSmoothingWindow(1);  // the raw readings, so that the means are known
    plot.setSeedGroups({{"infonce K=16", {0, 1}}});
    plot.append(0, {{1, 1.0, 0, 0}, {2, 2.0, 0, 0}, {3, 3.0, 0, 0}});  // the first seed trains alone
    QCPGraph* mean = nullptr;
    for (int i = 0; i < widget.graphCount(); ++i)
      if (widget.graph(i)->name().startsWith("infonce K=16 (mean of 2 seeds")) mean = widget.graph(i);
    QVERIFY(mean);
    QCOMPARE(mean->dataCount(), 3);
    QCOMPARE(mean->data()->at(2)->value, 3.0);
    plot.append(1, {{1, 3.0, 0, 0}});  // the second begins: the first point is now the mean of both
    QCOMPARE(mean->dataCount(), 3);
    QCOMPARE(mean->data()->at(0)->value, 2.0);
    QCOMPARE(mean->data()->at(2)->value, 3.0);
    plot.setOracle(1, 2.5, 0.1);  // the second seed's oracle, made after the grouping
    const QColor groupColour = mean->pen().color();
    QCOMPARE(groupColour, seriesStyle(0).color);
    int references = 0;
    for (int i = 0; i < widget.graphCount(); ++i) {
      const QString name = widget.graph(i)->name();
      if (!name.contains("ceiling") && !name.startsWith("oracle critic")) continue;
      if (widget.graph(i)->pen().color() == QColor(90, 90, 90)) continue;  // the legend's grey key
      ++references;
      QVERIFY2(widget.graph(i)->pen().color() == groupColour, qPrintable(name));
    }
    QVERIFY(references >= 3);  // each seed's log K, and the oracle
  }

  // Issue 44: the last held-out circle (the reported estimate, at the last step) is whole inside the plot, not cut
  // in half by the axis's end.
  void theLastHeldOutReadingIsWhollyInView() {
    PlotOfRuns bench;
    QCustomPlot& widget = bench.widget;
    RunPlot& plot = bench.plot;
    const RunSpec& spec = bench.spec;
    const int id = plot.addRun("infonce", seriesStyle(0), spec, knownResult(2, 16));
    QVector<CurvePoint> curve;
    for (int step = 1; step <= 100; ++step) curve.push_back({step, 1.0, -1.0, 0.0});
    curve[49].heldOut = 0.9;
    curve[99].heldOut = 0.95;
    plot.append(id, curve);
    plot.appendHeldOut(id, curve);
    plot.markEnded(id, RunResult{});
    plot.resetView();
    widget.replot();  // lays the axis rect out
    const double lastCentre = widget.xAxis->coordToPixel(100);
    QVERIFY2(widget.xAxis->axisRect()->right() - lastCentre >= 6,  // the circle's radius is 4, and its pen
             qPrintable(QStringLiteral("%1 px to the edge").arg(widget.xAxis->axisRect()->right() - lastCentre)));
  }

  // The view follows the readings and the truth (issue 79): a 0.2-nat run whose ceiling log N_test is 7.82 fills most
  // of the plot's height, the ceiling drawn at the top edge with its value, where it was drawn on 0 to 8; a ceiling
  // near the data (log 128 over a 2-nat task) stays in view.
  void theViewFollowsTheReadingsNotAFarCeiling() {
    PlotOfRuns bench;
    RunResult known = knownResult(0.2, 16);
    known.ceilings = {{"log N_test", std::log(2500.0)}};
    const int id = bench.plot.addRun("infonce", seriesStyle(0), bench.spec, known);
    QVector<CurvePoint> curve;
    for (int step = 1; step <= 100; ++step) curve.push_back({step, 0.2 * (1 - std::exp(-step / 8.0)), -1.0, 0.0});
    bench.plot.append(id, curve);
    bench.plot.markEnded(id, RunResult{});
    bench.plot.refresh();
    bench.widget.replot();
    QVERIFY2(bench.widget.yAxis->range().upper < 0.5, qPrintable(QString::number(bench.widget.yAxis->range().upper)));
    const QImage grab = bench.widget.grab().toImage();
    saveScreenshot(bench.widget, "view-follows-readings");
    const QRect rect = bench.widget.axisRect()->rect();
    const QColor ink = seriesStyle(0).color;
    int top = rect.bottom(), bottom = rect.top();
    // The run's colour over the first half of the steps, below the top edge where its ceiling and label are drawn.
    for (int y = rect.top() + rect.height() / 10; y <= rect.bottom(); ++y)
      for (int x = rect.left() + 1; x < rect.left() + rect.width() / 2; ++x) {
        const QColor c = grab.pixelColor(x, y);
        if (std::abs(c.red() - ink.red()) + std::abs(c.green() - ink.green()) + std::abs(c.blue() - ink.blue()) < 60) {
          top = std::min(top, y);
          bottom = std::max(bottom, y);
        }
      }
    QVERIFY2(bottom - top > rect.height() / 2,
             qPrintable(QStringLiteral("the curve spans %1 of %2 px").arg(bottom - top).arg(rect.height())));
    bool edgeLabel = false;
    for (int i = 0; i < bench.widget.itemCount(); ++i)
      if (auto* t = qobject_cast<QCPItemText*>(bench.widget.item(i)))
        edgeLabel = edgeLabel || t->text() == "above the view: ceiling log N_test = 7.82";
    QVERIFY(edgeLabel);

    PlotOfRuns near;
    const int other = near.plot.addRun("infonce", seriesStyle(0), near.spec, knownResult(2, 128));
    near.plot.append(other, curve);
    near.plot.refresh();
    QVERIFY(near.widget.yAxis->range().upper > std::log(128.0));
    for (int i = 0; i < near.widget.itemCount(); ++i)
      QVERIFY(!qobject_cast<QCPItemText*>(near.widget.item(i)) ||
              !qobject_cast<QCPItemText*>(near.widget.item(i))->text().startsWith("above the view"));
  }

  // Hiding a run hides every mark of it (issue 79: its held-out circles stayed): curve, circles, interval, ceilings.
  void hidingARunHidesAllItsMarks() {
    PlotOfRuns bench;
    QVector<CurvePoint> curve;
    for (int step = 1; step <= 100; ++step) curve.push_back({step, 1.0, -1.0, 0.0});
    curve[49].heldOut = 0.9;
    curve[99].heldOut = 0.95;
    const RunResult finite = finiteResult();
    const int id = bench.plot.addRun("infonce", seriesStyle(0), bench.spec, finite);
    bench.plot.append(id, curve);
    bench.plot.appendHeldOut(id, curve);
    bench.plot.markEnded(id, finite);
    const auto shownWithData = [&] {
      int n = 0;
      for (int i = 0; i < bench.widget.plottableCount(); ++i) {
        auto* graph = qobject_cast<QCPGraph*>(bench.widget.plottable(i));
        n += graph && graph->visible() && graph->dataCount() > 0 && graph->pen().color() == seriesStyle(0).color;
      }
      return n;
    };
    QVERIFY(shownWithData() >= 4);  // curve, circles, interval, ceiling
    bench.plot.setRunVisible(id, false);
    QCOMPARE(shownWithData(), 0);
  }

  // A finite set's final reading is drawn at its last step with its interval as bars, named in the legend with
  // both ends; a run without an interval (fresh batches) gets no such mark.
  void theFinalReadingCarriesItsInterval() {
    PlotOfRuns bench;
    QCustomPlot& widget = bench.widget;
    RunPlot& plot = bench.plot;
    QVector<CurvePoint> curve;
    for (int step = 1; step <= 100; ++step) curve.push_back({step, 1.0, -1.0, 0.0});
    const RunResult finite = finiteResult();
    const int id = plot.addRun("infonce", seriesStyle(0), bench.spec, finite);
    plot.append(id, curve);
    plot.markEnded(id, finite);
    QCPGraph* mark = nullptr;
    for (int i = 0; i < widget.graphCount(); ++i)
      if (widget.graph(i)->name().contains("% interval")) mark = widget.graph(i);
    QVERIFY(mark);
    QVERIFY2(mark->name().contains("0.950 [0.911, 0.989]"), qPrintable(mark->name()));
    QCOMPARE(mark->data()->size(), 1);
    QCOMPARE(mark->data()->begin()->key, 100.0);
    QCPErrorBars* bars = nullptr;
    for (int i = 0; i < widget.plottableCount(); ++i)
      if (auto* b = qobject_cast<QCPErrorBars*>(widget.plottable(i)); b && b->dataPlottable() == mark) bars = b;
    QVERIFY(bars);
    QVERIFY(std::abs(bars->data()->at(0).errorMinus - 0.039) < 1e-9);
    QVERIFY(std::abs(bars->data()->at(0).errorPlus - 0.039) < 1e-9);

    // Reported as the best held-out reading (report best, issue 79): the mark sits on that reading's step and says so.
    PlotOfRuns best;
    RunResult bestRead = finiteResult();
    bestRead.readings << NamedValue{"reported_step", 50};
    const int bestId = best.plot.addRun("infonce", seriesStyle(0), best.spec, bestRead);
    best.plot.append(bestId, curve);
    best.plot.markEnded(bestId, bestRead);
    QCPGraph* bestMark = nullptr;
    for (int i = 0; i < best.widget.graphCount(); ++i)
      if (best.widget.graph(i)->name().contains("% interval")) bestMark = best.widget.graph(i);
    QVERIFY(bestMark);
    QCOMPARE(bestMark->data()->begin()->key, 50.0);
    QVERIFY2(bestMark->name().endsWith(", 95% interval, best at step 50"), qPrintable(bestMark->name()));

    PlotOfRuns fresh;
    const int other = fresh.plot.addRun("infonce", seriesStyle(0), fresh.spec, knownResult(2, 16));
    fresh.plot.append(other, curve);
    fresh.plot.markEnded(other, knownResult(2, 16));
    for (int i = 0; i < fresh.widget.graphCount(); ++i)
      QVERIFY(!fresh.widget.graph(i)->name().contains("% interval"));
  }

  // In bits the plot keeps its data in nats and shows bits: the y axis named so, its ticks at round numbers of bits
  // where the data put them (a label of b bits at b ln 2 nats), the legend's truth, ceiling and interval in bits;
  // and back in nats as they were.
  void theUnitsSwitchRelabelsTheAxisAndTheLegend() {
    PlotOfRuns bench;
    QCustomPlot& widget = bench.widget;
    RunPlot& plot = bench.plot;
    QVector<CurvePoint> curve;
    for (int step = 1; step <= 100; ++step) curve.push_back({step, 2.5 + 0.01 * (step % 7), -1.0, 0.0});
    const RunResult finite = finiteResult();
    const int id = plot.addRun("infonce", seriesStyle(0), bench.spec, finite);
    plot.append(id, curve);
    plot.markEnded(id, finite);
    plot.resetView();
    const auto names = [&] {
      QStringList out;
      for (int i = 0; i < widget.graphCount(); ++i) out << widget.graph(i)->name();
      return out.join(" | ");
    };
    const QString inNats = names();
    QVERIFY2(inNats.contains("true I(x;y) = 2.00") && inNats.contains("ceiling log K = 2.77") &&
                 inNats.contains("0.950 [0.911, 0.989]"),
             qPrintable(inNats));
    plot.setUnits(Units::Bits);
    widget.replot();
    QCOMPARE(widget.yAxis->label(), QString("estimate (bits)"));
    const QString inBits = names();
    // 2 / ln 2 = 2.885, log 16 / ln 2 = 4; 0.95, 0.911, 0.989 nats are 1.371, 1.314, 1.427 bits.
    QVERIFY2(inBits.contains("true I(x;y) = 2.89") && inBits.contains("ceiling log K = 4.00") &&
                 inBits.contains("1.371 [1.314, 1.427]"),
             qPrintable(inBits));
    const QVector<double> ticks = widget.yAxis->tickVector();
    const QVector<QString> labels = widget.yAxis->tickVectorLabels();
    QVERIFY(ticks.size() >= 3);
    for (int i = 0; i < ticks.size(); ++i) {
      bool ok = false;
      const double bits = QLocale().toDouble(labels[i], &ok);
      QVERIFY2(ok && std::abs(bits - ticks[i] / std::log(2.0)) < 1e-9,
               qPrintable(QString("tick at %1 nats labelled %2").arg(ticks[i]).arg(labels[i])));
    }
    const double step = QLocale().toDouble(labels[1]) - QLocale().toDouble(labels[0]);
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
    QVERIFY2(std::abs(mantissa - std::round(mantissa * 2) / 2) < 1e-9, qPrintable(QString::number(step)));
    plot.setUnits(Units::Nats);
    QCOMPARE(widget.yAxis->label(), QString("estimate (nats)"));
    QCOMPARE(names(), inNats);
  }

  // The window's View > Units > bits shows every reading of the set in bits: the table's estimate column (named so)
  // and the result line; the files and the history's database stay in nats.
  void theWindowShowsReadingsInBits() {
    QTemporaryDir tmp;
    MainWindow w(registry_, tmp.filePath("history.sqlite"));
    w.show();
    auto* method = w.findChild<QComboBox*>("methodCombo");
    method->setCurrentIndex(method->findData("ksg"));
    w.findChild<QComboBox*>("taskCombo")->setCurrentIndex(0);
    w.findChild<QSpinBox*>("param.dim")->setValue(2);
    w.findChild<QDoubleSpinBox*>("param.mi")->setValue(1.0);
    w.findChild<QSpinBox*>("param.samples")->setValue(400);
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    const RunResult r = w.comparison()->run(0)->result();
    QVERIFY(hasEstimate(r));
    QTableWidget* table = w.comparison()->table();
    QCOMPARE(table->horizontalHeaderItem(3)->text(), QString("estimate (nats)"));
    QVERIFY2(table->item(0, 3)->text().startsWith(QString::number(r.estimate, 'f', 3)),
             qPrintable(table->item(0, 3)->text()));
    w.findChild<QAction*>("unitsBits")->trigger();
    QCOMPARE(w.units(), Units::Bits);
    QCOMPARE(table->horizontalHeaderItem(3)->text(), QString("estimate (bits)"));
    const QString bits = QString::number(r.estimate / std::log(2.0), 'f', 3);
    QVERIFY2(table->item(0, 3)->text().startsWith(bits), qPrintable(table->item(0, 3)->text()));
    QCOMPARE(table->item(0, 3)->data(Qt::UserRole + 2).toDouble(), r.estimate);  // sorted by the nats it read (kSortRole)
    auto* result = w.findChild<QLabel*>("resultLabel");
    QVERIFY2(result->text().contains("estimate " + bits) && result->text().contains(" bits"),
             qPrintable(result->text()));
    QCOMPARE(w.plot()->widget()->yAxis->label(), QString("estimate (bits)"));
    auto* history = w.history()->findChild<QTableWidget*>("historyTable");
    QTRY_COMPARE_WITH_TIMEOUT(history->rowCount(), 1, untilDoneMs());
    QCOMPARE(history->horizontalHeaderItem(4)->text(), QString("estimate (bits)"));
    // The finite set's interval over the data in the history too, in the same units, not a standard error.
    const QString low = QString::number(readingValue(r.readings, "ci_low") / std::log(2.0), 'f', 3);
    QVERIFY2(history->item(0, 4)->text().startsWith(bits + " [" + low + ", "), qPrintable(history->item(0, 4)->text()));
    // Copy on either table puts the selected rows on the clipboard under the header, tab-separated (issue 79).
    for (QTableWidget* t : {table, history}) {
      QApplication::clipboard()->clear();
      t->selectRow(0);
      QTest::keyClick(t, Qt::Key_C, Qt::ControlModifier);
      const QStringList lines = QApplication::clipboard()->text().split('\n', Qt::SkipEmptyParts);
      QCOMPARE(lines.size(), 2);
      QVERIFY2(lines[0].contains("method\t") && lines[0].contains("estimate (bits)"), qPrintable(lines[0]));
      const QStringList cells = lines[1].split('\t');
      QCOMPARE(cells.size(), lines[0].split('\t').size());
      QVERIFY2(cells.contains("ksg") && lines[1].contains(bits), qPrintable(lines[1]));
    }
    saveScreenshot(w, "units-bits");
    w.comparison()->showPage(w.history());
    saveScreenshot(w, "units-bits-history");
    w.findChild<QAction*>("unitsNats")->trigger();
    QVERIFY2(table->item(0, 3)->text().startsWith(QString::number(r.estimate, 'f', 3)),
             qPrintable(table->item(0, 3)->text()));
  }

  // A saved set is an experiment file: the runner reproduces the window's numbers, and it reopens as a set.
  void savedSetReopensAndTheRunnerReproducesIt() {
    QTemporaryDir tmp;
    MainWindow w(registry_);
    w.show();
    configure(w, "infonce", 0, 4, 16, 100);
    tick(w, {"nwj"});
    w.findChild<QLineEdit*>("varyEdit")->setText("K=8,32");
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    ComparisonView* set = w.comparison();
    QCOMPARE(set->size(), 4);
    const QString file = tmp.filePath("set.json");
    QCOMPARE(set->saveSet(file), QString());
    const QJsonObject saved = QJsonDocument::fromJson(readAll(file)).object();
    QCOMPARE(saved.value("methods").toArray().size(), 4);
    QCOMPARE(saved.value("task").toString(), QString("gaussian2"));

    MILAB_SKIP_CHILD_PROCESSES_UNDER_TSAN();
    QProcess cli;
    cli.start(MILAB_CLI_PATH, {"run", file, "--out", tmp.filePath("out")});
    QVERIFY(cli.waitForFinished(untilDoneMs()));
    QCOMPARE(cli.exitCode(), 0);
    const QList<QByteArray> rows = readAll(tmp.filePath("out/grid.csv")).trimmed().split('\n');
    QCOMPARE(rows.size(), 5);
    const int estimateColumn = QString(rows[0]).split(',').indexOf("estimate");
    QList<double> cliEstimates, windowEstimates;
    for (int r = 1; r < rows.size(); ++r) cliEstimates << QString(rows[r]).split(',')[estimateColumn].toDouble();
    for (int i = 0; i < set->size(); ++i) windowEstimates << set->run(i)->result().estimate;
    std::sort(cliEstimates.begin(), cliEstimates.end());
    std::sort(windowEstimates.begin(), windowEstimates.end());
    for (int i = 0; i < 4; ++i)
      QVERIFY2(std::abs(cliEstimates[i] - windowEstimates[i]) < 1e-6,
               qPrintable(QString("%1 vs %2").arg(cliEstimates[i]).arg(windowEstimates[i])));

    MainWindow again(registry_);
    QCOMPARE(again.openRunSet(file), QString());
    QCOMPARE(again.comparison()->size(), 4);
    QTRY_VERIFY_WITH_TIMEOUT(!again.comparison()->running(), untilDoneMs());
    QList<double> reopened;
    for (int i = 0; i < 4; ++i) reopened << again.comparison()->run(i)->result().estimate;
    std::sort(reopened.begin(), reopened.end());
    for (int i = 0; i < 4; ++i) QVERIFY(std::abs(reopened[i] - windowEstimates[i]) < 1e-6);
  }

  // A list that gives no run, or names no parameter, is refused on the vary field; nothing starts.
  void badListsAreRefusedOnTheField() {
    MainWindow w(registry_);
    w.show();
    configure(w, "infonce", 0, 4, 16, 100);
    for (const char* text : {"K=", "zzz=1,2", "K 8,16", "K=1,8"}) {
      w.findChild<QLineEdit*>("varyEdit")->setText(text);
      QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
      QVERIFY2(!w.currentRun(), text);
      const QString shown = w.findChild<QLabel*>("error.vary")->isVisible() ? w.findChild<QLabel*>("error.vary")->text()
                                                                            : w.findChild<QLabel*>("error.K")->text();
      QVERIFY2(!shown.isEmpty(), text);
    }
  }

  // The staircase in the window: the true MI as a step line with every level.
  void staircaseDrawsItsStepLine() {
    MainWindow w(registry_);
    w.show();
    configure(w, "infonce", 0, 4, 16, 100);
    w.findChild<QLineEdit*>("param.mi_schedule")->setText("1,3,5");
    w.findChild<QSpinBox*>("param.steps_per_level")->setValue(60);
    // The staircase sets the run's length: the steps field shows it, greyed, and a tail longer than a level (which
    // would read the level's warm-up) is refused on its field.
    auto* stepsField = w.findChild<QSpinBox*>("param.steps");
    QCOMPARE(stepsField->value(), 180);
    QVERIFY(!stepsField->isEnabled());
    QVERIFY(stepsField->toolTip().contains("3 levels x 60 steps per level"));
    w.findChild<QSpinBox*>("param.level_tail")->setValue(61);
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QVERIFY(!w.currentRun());
    QCOMPARE(w.findChild<QLabel*>("error.level_tail")->text(),
             QString("at most steps_per_level (60), the steps of one level; got 61"));
    w.findChild<QSpinBox*>("param.level_tail")->setValue(30);
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QVERIFY(w.currentRun());
    QCOMPARE(w.currentRun()->spec().steps, 180);
    QCPGraph* steps = graphNamed(w, "true I(x;y) (staircase)");
    QVERIFY(steps);
    QCOMPARE(steps->dataCount(), 6);
    QCOMPARE(steps->data()->at(5)->value, 5.0);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    QCOMPARE(w.currentRun()->result().levels.size(), 3);
    // Its oracle follows the levels: a dotted step line over the run's own level spans, rising with the MI.
    QTRY_VERIFY_WITH_TIMEOUT(graphNamed(w, "oracle critic (infonce), per level"), untilDoneMs());
    QCPGraph* oracle = graphNamed(w, "oracle critic (infonce), per level");
    QCOMPARE(oracle->dataCount(), 6);
    QCOMPARE(oracle->data()->at(5)->key, 180.0);
    QVERIFY(oracle->data()->at(0)->value < oracle->data()->at(2)->value);
    QVERIFY(oracle->data()->at(2)->value < oracle->data()->at(4)->value);
    QVERIFY(!hasGraph(w, "oracle critic (infonce) ="));  // no flat line at the last level's value
    saveScreenshot(w, "staircase-oracle");
    w.findChild<QLineEdit*>("param.mi_schedule")->clear();  // no staircase: steps is the user's again
    QVERIFY(w.findChild<QSpinBox*>("param.steps")->isEnabled());
    w.comparison()->showFigure(true);
    saveScreenshot(w, "staircase");
  }

  // The wheel over the form scrolls it: a combo box or spin box under the pointer changes only once focused
  // (InfoNCE became TUBA while scrolling). Every tick of the "also run" list is named below it, so one scrolled out
  // of view cannot add runs unseen.
  void theWheelScrollsTheFormAndTicksAreNamed() {
    MainWindow w(registry_);
    w.show();
    auto* method = w.findChild<QComboBox*>("methodCombo");
    method->setCurrentIndex(method->findData("infonce"));
    auto* K = w.findChild<QSpinBox*>("param.K");  // the method's form is rebuilt by the change
    const int before = method->currentIndex(), kBefore = K->value();
    const auto wheel = [](QWidget* target) {
      const QPointF at(target->width() / 2.0, target->height() / 2.0);
      QWheelEvent event(at, target->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                        Qt::NoScrollPhase, false);
      QApplication::sendEvent(target, &event);
    };
    QVERIFY(!method->hasFocus() && !K->hasFocus());
    wheel(K);
    QCOMPARE(K->value(), kBefore);
    wheel(method);  // (a change would rebuild the method's form: K is not read after this)
    QCOMPARE(method->currentIndex(), before);
    QCOMPARE(method->focusPolicy(), Qt::StrongFocus);  // a click or tab focuses it, the wheel does not

    auto* ticked = w.findChild<QLabel*>("compareTicked");
    QVERIFY2(ticked->text().contains("none"), qPrintable(ticked->text()));
    tick(w, {"doe", "smile"});
    QCOMPARE(ticked->text(), QString("ticked: doe, smile"));
    method->setCurrentIndex(method->findData("smile"));  // the form's own method is not ticked twice, but kept
    QCOMPARE(ticked->text(), QString("ticked: doe; set aside: smile (the method above, or one the task cannot run)"));
    QVERIFY(ticked->isVisible());
  }

  // A failed run's plot says it failed and why, and spans the readings that made it fail; a finished run with a
  // few wild steps keeps a readable range and no such line.
  void aFailedRunsPlotSaysSoAndShowsItsReadings() {
    const auto render = [](RunStatus status, QCustomPlot* widget) {
      RunPlot plot(widget);
      RunSpec spec;
      spec.method = "infonce";
      spec.task = "gaussian2";
      spec.steps = 100;
      RunResult result;
      result.status = status;
      result.targetName = "I(x;y)";
      result.trueMi = 1;
      result.reason = status == RunStatus::Failed ? "training diverged (the training reading reached -200000 at step 5)"
                                                  : QString();
      QVector<CurvePoint> curve;
      for (int step = 1; step <= 100; ++step)
        curve << CurvePoint{step, step < 60 ? -200000.0 * std::exp(-step / 10.0) : 0.9};
      plot.showRun(spec, result, curve);
      QStringList texts;
      for (int i = 0; i < widget->plotLayout()->elementCount(); ++i)
        if (auto* t = qobject_cast<QCPTextElement*>(widget->plotLayout()->elementAt(i))) texts << t->text();
      return texts.join(" | ");
    };
    QCustomPlot failed, finished;
    failed.resize(900, 600);
    finished.resize(900, 600);
    const QString failedTexts = render(RunStatus::Failed, &failed);
    QVERIFY2(failedTexts.contains("failed: training diverged (the training reading reached -200000"),
             qPrintable(failedTexts));
    QVERIFY2(failed.yAxis->range().lower < -20000, qPrintable(QString::number(failed.yAxis->range().lower)));
    const QString finishedTexts = render(RunStatus::Finished, &finished);
    QVERIFY2(!finishedTexts.contains("failed"), qPrintable(finishedTexts));
    QVERIFY(finished.yAxis->range().lower > -10);  // the wild steps stay off a finished run's scale
    saveScreenshot(failed, "failed-run-plot");
  }

  // A refusal shows on its field as the form is edited, whole, not only at Run in the status bar; it goes once
  // fixed, and so does the status bar's copy; the task chart says it waits instead of squeezing a long title.
  void refusalsShowOnTheFieldAndClearWhenFixed() {
    MainWindow w(registry_);
    w.show();
    auto* method = w.findChild<QComboBox*>("methodCombo");
    method->setCurrentIndex(method->findData("infonce"));
    w.findChild<QComboBox*>("taskCombo")->setCurrentIndex(0);  // gaussian2
    w.findChild<QSpinBox*>("param.dim")->setValue(5);
    w.findChild<QDoubleSpinBox*>("param.mi")->setValue(100);
    auto* error = w.findChild<QLabel*>("error.mi");
    QTRY_VERIFY(error->isVisible());
    QVERIFY2(error->text().startsWith("must be a number in (0, 25] (5 nats per dimension, dim=5), got 100"),
             qPrintable(error->text()));
    QCOMPARE(titleOf(w.findChild<QCustomPlot*>("taskChart")), QString("no chart until the task's settings are valid"));
    auto* runPlot = w.findChild<QCustomPlot*>("runPlot");
    QTRY_VERIFY2(titleOf(runPlot).startsWith("Nothing to preview"), qPrintable(titleOf(runPlot)));  // not stale
    QVERIFY(!runPlot->legend->visible());                                                           // no empty box
    saveScreenshot(w, "refusal-on-field");
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QVERIFY(!w.currentRun());
    QVERIFY(w.statusBar()->currentMessage().startsWith("mi: must be a number in (0, 25]"));
    w.findChild<QDoubleSpinBox*>("param.mi")->setValue(2);
    QTRY_VERIFY(!error->isVisible());
    QTRY_COMPARE(w.statusBar()->currentMessage(), QString());
    QVERIFY(titleOf(w.findChild<QCustomPlot*>("taskChart")).startsWith("I(x;y) = 2.00"));
    QTRY_VERIFY2(titleOf(runPlot).startsWith("Configured: infonce on gaussian2"), qPrintable(titleOf(runPlot)));
    QVERIFY(runPlot->legend->visible());

    // Typed values a spin box cannot take are said on the field, not dropped ("-5" became 5) or silently put back
    // (K = 1 reverted to 128).
    const auto type = [](QAbstractSpinBox* box, const char* text) {
      box->setFocus();
      box->selectAll();
      QTest::keyClicks(box, text);
      QTest::keyClick(box, Qt::Key_Return);
    };
    auto* dim = w.findChild<QSpinBox*>("param.dim");
    type(dim, "-5");
    QCOMPARE(dim->value(), 5);
    QCOMPARE(w.findChild<QLabel*>("error.dim")->text(),
             QString("must be an integer in [1, 1024], got -5 (the field keeps 5)"));
    auto* K = w.findChild<QSpinBox*>("param.K");
    type(K, "1");
    QCOMPARE(K->value(), 128);
    QVERIFY2(w.findChild<QLabel*>("error.K")->text().endsWith(", got 1 (the field keeps 128)"),
             qPrintable(w.findChild<QLabel*>("error.K")->text()));
    type(K, "64");  // a value it takes: no error
    QCOMPARE(K->value(), 64);
    QVERIFY(!w.findChild<QLabel*>("error.K")->isVisible());
    // Issue 44: no prefix of what was typed is kept. "1e9" became 19 (the e dropped); 1000000000 left 10000, the
    // last prefix in range, behind while the message said the field kept it.
    for (const char* typed : {"1e9", "1000000000", "abc"}) {
      type(K, typed);
      QCOMPARE(K->value(), 64);
      QVERIFY2(
          w.findChild<QLabel*>("error.K")->text().endsWith(QStringLiteral(", got %1 (the field keeps 64)").arg(typed)),
          qPrintable(w.findChild<QLabel*>("error.K")->text()));
    }
    auto* lr = w.findChild<QDoubleSpinBox*>("param.lr");
    const double lrBefore = lr->value();
    type(lr, "1000000000");
    QCOMPARE(lr->value(), lrBefore);
    QVERIFY2(w.findChild<QLabel*>("error.lr")->text().contains("got 1000000000 (the field keeps"),
             qPrintable(w.findChild<QLabel*>("error.lr")->text()));
    // The interval's level: strictly between 0 and 1, said on its field.
    auto* ci = w.findChild<QDoubleSpinBox*>("param.ci");
    QVERIFY(ci);
    QCOMPARE(ci->value(), 0.95);
    type(ci, "1");
    QVERIFY2(w.findChild<QLabel*>("error.ci")->text().startsWith("must be a number in (0, 1)"),
             qPrintable(w.findChild<QLabel*>("error.ci")->text()));
  }

  // The same run twice (Run pressed again) draws two curves that the legend tells apart by their row.
  void identicalRunsGetTheirOwnLabels() {
    MainWindow w(registry_);
    w.show();
    configure(w, "infonce", 0, 2, 8, 30);
    for (int i = 0; i < 2; ++i) {
      QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
      QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    }
    QCOMPARE(w.comparison()->size(), 2);
    QVERIFY(graphNamed(w, "infonce #1") && graphNamed(w, "infonce #2"));
    QVERIFY(!graphNamed(w, "infonce"));
  }

  // Every line drawn is named in the legend: its own entry with a few runs, and with four or more (when each
  // ceiling and oracle leaves the legend) a key entry per kind of line; the key goes when the set shrinks again.
  void everyDrawnLineKindIsInTheLegend() {
    PlotOfRuns bench;
    QCustomPlot& widget = bench.widget;
    RunPlot& plot = bench.plot;
    const RunSpec& spec = bench.spec;
    const RunResult known = knownResult(2, 16);
    const auto legendNames = [&] {
      QStringList names;
      for (int i = 0; i < widget.legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(widget.legend->item(i)))
          names << item->plottable()->name();
      return names;
    };
    for (int i = 0; i < 3; ++i) plot.addRun(QStringLiteral("run %1").arg(i), seriesStyle(i), spec, known);
    plot.setOracle(0, 2.5, 0.1);
    QCOMPARE(legendNames().filter("ceiling log K").size(), 3);
    QCOMPARE(legendNames().filter("oracle critic (run 0)").size(), 1);
    QVERIFY(legendNames().filter("ceilings (").isEmpty());
    for (int i = 3; i < 5; ++i) plot.addRun(QStringLiteral("run %1").arg(i), seriesStyle(i), spec, known);
    plot.setOracle(4, 2.4, 0.1);
    const QStringList five = legendNames();
    QVERIFY2(five.filter("ceiling log K").isEmpty(), qPrintable(five.join(" | ")));
    QCOMPARE(five.filter("ceilings (dashed").size(), 1);
    QCOMPARE(five.filter("oracle critics (dotted").size(), 1);
    QVERIFY(five.last().startsWith("oracle critics"));  // the keys come after the runs
    QCOMPARE(five.filter(QRegularExpression("^run \\d$")).size(), 5);
    for (int i = 0; i < 5; ++i) {
      QVector<CurvePoint> points;
      for (int step = 1; step <= 100; ++step) points << CurvePoint{step, 2.0 - 1.5 * std::exp(-step / 20.0) - 0.1 * i};
      plot.append(i, points);
    }
    plot.refresh();  // the legend shown, as the window's tick shows it
    widget.replot();
    saveScreenshot(widget, "legend-five-runs");
    plot.clear("set");
    plot.addRun("alone", seriesStyle(0), spec, known);
    QCOMPARE(legendNames().filter("ceilings (").size(), 0);
    QCOMPARE(legendNames().filter("ceiling log K").size(), 1);
  }

  // Past twelve runs the legend names the first twelve and says how many more the table lists (issue 79: 28 entries
  // under the plot left it a sliver at 1280 x 720).
  void aLargeSetsLegendNamesTwelveRuns() {
    QCustomPlot widget;
    widget.resize(820, 300);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    RunPlot plot(&widget);
    plot.clear("set");
    RunSpec spec;
    spec.steps = 100;
    for (int i = 0; i < 20; ++i) {
      const int id = plot.addRun(QStringLiteral("infonce K=%1").arg(8 * (i + 1)), seriesStyle(i), spec,
                                 knownResult(2, 8 * (i + 1)));
      QVector<CurvePoint> points;
      for (int step = 1; step <= 100; ++step) points << CurvePoint{step, 1.5 - std::exp(-step / 20.0) - 0.02 * i};
      plot.append(id, points);
    }
    plot.refresh();
    widget.replot();
    QStringList names;
    for (int i = 0; i < widget.legend->itemCount(); ++i)
      if (auto* item = qobject_cast<QCPPlottableLegendItem*>(widget.legend->item(i)))
        names << item->plottable()->name();
    QCOMPARE(names.filter(QRegularExpression("^infonce K=\\d+$")).size(), 12);
    QVERIFY2(names.contains("and 8 more (the table lists every run)"), qPrintable(names.join(" | ")));
    QVERIFY2(widget.axisRect()->height() >= widget.height() / 2,
             qPrintable(QStringLiteral("%1 of %2 px").arg(widget.axisRect()->height()).arg(widget.height())));
    saveScreenshot(widget, "legend-twenty-runs");
  }

  // Ten runs of a set (methods by K, as a sweep gives them) leave the data most of the plot: the legend beside them
  // takes at most a third of the width; wider, its entries wrap in columns under the data, unless there they would
  // take a quarter of a short plot's height and beside it still fits in half the width (issue 79).
  void tenRunsLeaveTheDataItsWidth() {
    QCustomPlot widget;
    widget.resize(820, 440);  // the window's Curves tab at 1280 x 720
    widget.show();            // laid out at that size, as in the window
    QVERIFY(QTest::qWaitForWindowExposed(&widget));
    RunPlot plot(&widget);
    plot.clear("set");
    RunSpec spec;
    spec.steps = 100;
    const RunResult known = knownResult(6, 128);
    const QStringList methods = {"infonce", "demi-bo", "demi-var", "smile", "club-sample"};
    for (int i = 0; i < 10; ++i) {
      const int id =
          plot.addRun(QStringLiteral("%1 K=%2 lr=0.0005 seed=%3").arg(methods[i / 2]).arg(i % 2 ? 512 : 32).arg(i),
                      seriesStyle(i), spec, known);
      QVector<CurvePoint> points;
      for (int step = 1; step <= 100; ++step) points << CurvePoint{step, 5.0 - 4.5 * std::exp(-step / 20.0) - 0.2 * i};
      plot.append(id, points);
      plot.setOracle(id, 4.8, 0.1);
    }
    plot.resetView();
    plot.refresh();
    widget.replot();
    saveScreenshot(widget, "legend-ten-runs");
    // Beside the data while under them it would take a quarter of the height (issue 79): the data keep over half the
    // width and most of the height either way.
    QVERIFY2(widget.axisRect()->width() >= 0.55 * widget.width() &&
                 widget.axisRect()->height() >= 0.6 * widget.height(),
             qPrintable(QStringLiteral("data %1 x %2 of %3 x %4 px")
                            .arg(widget.axisRect()->width())
                            .arg(widget.axisRect()->height())
                            .arg(widget.width())
                            .arg(widget.height())));
    QVERIFY(widget.legend->visible());
    QVERIFY(!widget.legend->outerRect().intersects(widget.axisRect()->rect()));  // never over the data
    QVERIFY(widget.rect().contains(widget.legend->outerRect()));                 // nor cut by the image's edge
    // A tall plot has the height to spare: the legend goes under the data, in columns.
    widget.resize(820, 900);
    plot.refresh();
    widget.replot();
    QVERIFY(widget.legend->outerRect().top() > widget.axisRect()->rect().bottom());
    QVERIFY(widget.rect().contains(widget.legend->outerRect()));
    QVERIFY2(widget.axisRect()->width() >= 0.9 * widget.width(),
             qPrintable(QString::number(widget.axisRect()->width())));
    // A set of one again: the legend goes back beside the data.
    plot.clear("set");
    plot.addRun("infonce", seriesStyle(0), spec, known);
    plot.refresh();
    widget.replot();
    QVERIFY(widget.legend->outerRect().left() > widget.axisRect()->rect().right());
    QVERIFY(widget.rect().contains(widget.legend->outerRect()));
  }

  // Ticks survive a method switch (issue 79: they vanished): the form's own method is set aside, greyed and said,
  // and comes back ticked once another method is chosen; an experiment file opened as the form's run clears the
  // ticks and the vary list, and says so (a stale K=32,128 ran silently after a preset).
  void ticksStayThroughASwitchAndAPresetClearsThem() {
    QTemporaryDir tmp;
    MainWindow w(registry_, tmp.filePath("history.sqlite"));
    w.show();
    configure(w, "infonce", 0, 2, 16, 60);
    tick(w, {"nwj", "mine"});
    auto* method = w.findChild<QComboBox*>("methodCombo");
    auto* ticked = w.findChild<QLabel*>("compareTicked");
    method->setCurrentIndex(method->findData("nwj"));
    QCOMPARE(w.panel()->comparedMethods(), QStringList{"mine"});
    QVERIFY2(ticked->text().contains("set aside: nwj"), qPrintable(ticked->text()));
    method->setCurrentIndex(method->findData("infonce"));
    QStringList back = w.panel()->comparedMethods();
    back.sort();
    QCOMPARE(back, (QStringList{"mine", "nwj"}));
    w.findChild<QLineEdit*>("varyEdit")->setText("K=32,128");
    QCOMPARE(w.openExperiment(":/experiments/default.json"), QString());
    QVERIFY(w.panel()->comparedMethods().isEmpty());
    QVERIFY(w.findChild<QLineEdit*>("varyEdit")->text().isEmpty());
    QVERIFY2(w.statusBar()->currentMessage().contains("the ticked methods and the vary list were cleared"),
             qPrintable(w.statusBar()->currentMessage()));
  }

  // A set's exports hold every run (issue 79: "Export curve" wrote the last run only, without saying which): its
  // curves with a run column, its summaries as a list; each dialog is titled by what it saves, suggests a name from
  // the set and opens in the last folder used; the status bar says what was written.
  void aSetsExportsHoldEveryRunAndTheDialogsSaySo() {
    QTemporaryDir tmp;
    MainWindow w(registry_, tmp.filePath("history.sqlite"));
    w.show();
    configure(w, "infonce", 0, 2, 16, 60);
    tick(w, {"nwj", "ksg"});
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QAbstractButton*>("stopButton")->isEnabled(), untilDoneMs());
    QString written;
    QCOMPARE(w.exportTo(tmp.filePath("c.csv"), &written), QString());
    QCOMPARE(written, QString("3 runs' curves (a row per step; run numbers as in the table)"));
    const QList<QByteArray> rows = readAll(tmp.filePath("c.csv")).trimmed().split('\n');
    QCOMPARE(rows.first(), QByteArray("run,label,step,estimate,loss,seconds,held_out"));
    QMap<QByteArray, int> perRun;
    for (int i = 1; i < rows.size(); ++i) ++perRun[rows[i].split(',').first()];
    int ksg = 0;
    for (int i = 0; i < 3; ++i) ksg = w.comparison()->specs()[i].method == "ksg" ? i + 1 : ksg;
    for (int run = 1; run <= 3; ++run)  // KSG trains nothing: its one reading is its row
      QCOMPARE(perRun.value(QByteArray::number(run)), run == ksg ? 1 : 60);
    QCOMPARE(w.exportTo(tmp.filePath("s.json"), &written), QString());
    const QJsonArray runs = QJsonDocument::fromJson(readAll(tmp.filePath("s.json"))).object().value("runs").toArray();
    QCOMPARE(runs.size(), 3);
    QCOMPARE(runs[1].toObject().value("run").toInt(), 2);
    QCOMPARE(runs[1].toObject().value("label").toString(), w.comparison()->label(1));

    const QString folder = tmp.filePath("exports");
    QVERIFY(QDir().mkpath(folder));
    QAction* exportCurves = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
      if (a->text() == "Export the curves as CSV...") exportCurves = a;
    QVERIFY(exportCurves);
    QString title, suggested, startedIn;
    const auto answer = [&](const QString& file) {
      QTimer::singleShot(0, [&, file] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        title = dialog->windowTitle();
        suggested = dialog->selectedFiles().value(0);
        startedIn = dialog->directory().absolutePath();
        dialog->selectFile(file);
        static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept, protected there
      });
    };
    answer(QDir(folder).filePath("mine.csv"));
    exportCurves->trigger();
    QCOMPARE(title, QString("Export the curves as CSV"));
    QVERIFY2(suggested.endsWith("/gaussian2-set-curves.csv"), qPrintable(suggested));
    QCOMPARE(readAll(QDir(folder).filePath("mine.csv")), readAll(tmp.filePath("c.csv")));
    QVERIFY2(w.statusBar()->currentMessage().startsWith("Wrote 3 runs' curves"),
             qPrintable(w.statusBar()->currentMessage()));
    answer(QDir(folder).filePath("again.csv"));
    exportCurves->trigger();
    QCOMPARE(startedIn, QDir(folder).absolutePath());  // the folder last saved in
  }

  // Run stays enabled while the set trains and adds to it, as the guide says (issue 79: the whole form was greyed);
  // a run on another task is refused with the reason while the set trains, and Stop ends them all.
  void runAddsToTheSetWhileItTrains() {
    QTemporaryDir tmp;
    MainWindow w(registry_, tmp.filePath("history.sqlite"));
    w.show();
    configure(w, "infonce", 0, 2, 16, 1000000);
    auto* run = w.findChild<QAbstractButton*>("runButton");
    auto* stop = w.findChild<QAbstractButton*>("stopButton");
    QTest::mouseClick(run, Qt::LeftButton);
    QCOMPARE(w.comparison()->size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(w.plot()->pointCount(0) > 0, untilDoneMs());  // it trains
    QVERIFY(run->isEnabled() && stop->isEnabled());
    auto* method = w.findChild<QComboBox*>("methodCombo");
    QVERIFY(method->isEnabled());
    method->setCurrentIndex(method->findData("nwj"));
    QTest::mouseClick(run, Qt::LeftButton);
    QVERIFY2(w.refusal().isEmpty(), qPrintable(w.refusal()));
    QCOMPARE(w.comparison()->size(), 2);
    QCOMPARE(w.comparison()->specs().last().method, QString("nwj"));
    auto* task = w.findChild<QComboBox*>("taskCombo");
    task->setCurrentIndex(task->findData("gaussian3"));
    QTest::mouseClick(run, Qt::LeftButton);
    QVERIFY2(w.refusal().startsWith("task: the set's runs on Gaussian pair (x, y) (gaussian2) still train"),
             qPrintable(w.refusal()));
    QCOMPARE(w.comparison()->size(), 2);
    QVERIFY(w.findChild<QLabel*>("panelError")->isVisible());
    // Where the eye is: under the plot, and on the status bar while the runs go on training.
    QVERIFY(w.findChild<QLabel*>("resultLabel")->text().contains("still train"));
    QTest::qWait(300);  // a few of the window's ticks (every 33 ms): the line stays
    QCOMPARE(w.statusBar()->currentMessage(), w.refusal());
    saveScreenshot(w, "run-while-training");
    QTest::mouseClick(stop, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!stop->isEnabled(), untilDoneMs());
    for (int i = 0; i < 2; ++i) QCOMPARE(w.comparison()->status(i), RunStatus::Cancelled);
    QVERIFY(w.refusal().isEmpty() && !w.findChild<QLabel*>("panelError")->isVisible());  // it ended with them
  }

  // Closing the window while runs train stops them where they are: it waits for no remaining step and no final
  // evaluation, only for the step each run is inside. Counted in steps, not milliseconds (the window closed in
  // 7-8 ms here under Xvfb, and a time bound would only say how fast the machine is): each cancelled run is
  // recorded within a few steps of where it was when the window closed, out of a million.
  void closingWhileRunsTrainIsQuick() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("history.sqlite");
    auto* w = new MainWindow(registry_, db);
    w->show();
    configure(*w, "infonce", 0, 20, 128, 1000000);
    w->findChild<QLineEdit*>("varyEdit")->setText("seed=1,2,3");
    w->findChild<QSpinBox*>("jobsSpin")->setValue(3);
    QTest::mouseClick(w->findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(w->plot()->pointCount(0) > 10, untilDoneMs());
    QMap<int, int> stepsAtClose;  // by seed
    for (int i = 0; i < w->comparison()->size(); ++i)
      stepsAtClose[w->comparison()->run(i)->spec().seed] = w->comparison()->run(i)->stepsDone();
    w->close();
    delete w;
    const QList<StoredRun> stored = RunStore(db).list();
    QCOMPARE(stored.size(), 3);
    for (const StoredRun& r : stored) {
      const int seed = r.spec.value("seed").toInt();
      QCOMPARE(r.status, QString("cancelled"));
      QCOMPARE(r.reason, QStringLiteral("cancelled at step %1").arg(r.stepsDone));  // no evaluation after it
      // The count read at close lags the steps taken by the readings not yet drained (at most 256, at most 50 ms
      // of steps: 9-30 were seen here), plus the step in flight: 300 bounds it, against the 999,960 that remained.
      QVERIFY2(r.stepsDone >= stepsAtClose.value(seed) && r.stepsDone <= stepsAtClose.value(seed) + 300,
               qPrintable(QStringLiteral("seed %1: %2 steps at close, %3 recorded")
                              .arg(seed)
                              .arg(stepsAtClose.value(seed))
                              .arg(r.stepsDone)));
    }
  }

 private:
  // A RunPlot on a 900 x 500 widget, cleared, and the spec of a 100-step run to add to it.
  struct PlotOfRuns {
    QCustomPlot widget;
    RunPlot plot{&widget};
    RunSpec spec;
    PlotOfRuns() {
      widget.resize(900, 500);
      plot.clear("set");
      spec.steps = 100;
    }
  };
  // A finished finite-sample run on a 2-nat task at K = 16: 0.95 nats, its 95% interval 0.911 to 0.989.
  static RunResult finiteResult() {
    RunResult finite = knownResult(2, 16);
    finite.status = RunStatus::Finished;
    finite.estimate = 0.95;
    finite.fromEvaluation = true;
    finite.readings = {{"ci_level", 0.95}, {"ci_low", 0.911}, {"ci_high", 0.989}};
    return finite;
  }
  // What a run knows before it trains: its target I(x;y) and its ceiling log K.
  static RunResult knownResult(double trueMi, int K) {
    RunResult known;
    known.targetName = "I(x;y)";
    known.trueMi = trueMi;
    known.ceilings = {{"log K", std::log(double(K))}};
    return known;
  }
  static void configure(MainWindow& w, const char* method, int task, int dim, int K, int steps) {
    auto* combo = w.findChild<QComboBox*>("methodCombo");
    combo->setCurrentIndex(combo->findData(method));
    w.findChild<QComboBox*>("taskCombo")->setCurrentIndex(task);
    w.findChild<QSpinBox*>("param.dim")->setValue(dim);
    w.findChild<QDoubleSpinBox*>("param.mi")->setValue(2.0);  // a task switch keeps the last task's mi
    w.findChild<QSpinBox*>("param.K")->setValue(K);
    w.findChild<QSpinBox*>("param.steps")->setValue(steps);
    w.findChild<QComboBox*>("param.device")->setCurrentText("cpu");
  }
  static void tick(MainWindow& w, const QStringList& methods) {
    auto* list = w.findChild<QListWidget*>("compareMethods");
    for (int i = 0; i < list->count(); ++i)
      if (methods.contains(list->item(i)->data(Qt::UserRole).toString())) list->item(i)->setCheckState(Qt::Checked);
  }
  static QCPGraph* graphNamed(const MainWindow& w, const QString& name) {
    auto* plot = w.findChild<QCustomPlot*>("runPlot");
    for (int i = 0; i < plot->graphCount(); ++i)
      if (plot->graph(i)->name() == name) return plot->graph(i);
    return nullptr;
  }
  static int countGraphs(const MainWindow& w, const QString& prefix) {
    auto* plot = w.findChild<QCustomPlot*>("runPlot");
    int n = 0;
    for (int i = 0; i < plot->graphCount(); ++i) n += plot->graph(i)->name().startsWith(prefix);
    return n;
  }
  static bool hasGraph(const MainWindow& w, const QString& prefix) { return countGraphs(w, prefix) > 0; }
  static QString titleOf(QCustomPlot* plot) {
    auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
    return t ? t->text() : QString();
  }
  static QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
  }

  MethodRegistry registry_;
};

QTEST_MAIN(TestComparison)
#include "test_comparison.moc"
