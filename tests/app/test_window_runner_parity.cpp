// The window reads what the runner reads (issue 79, item 1): for each task family (a covariate Gaussian, a
// Beyond-Normal task, a table) x {fresh batches, a finite set, every row of a table} x three methods (a critic, a
// diffusion estimator, KSG), the run the form starts, recipe and all, equals the run milab-cli starts from the same
// task, method and keys, as summary.json records it. And a set that mixes methods under the lab's recipe starts and
// finishes, each method with its own recipe values.
#include <qcustomplot.h>

#include <QAbstractButton>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "engine/device.h"
#include "engine/experiment.h"
#include "gui/lab_controller.h"
#include "gui/main_window.h"
#include "gui/panels/experiment_panel.h"
#include "gui/views/comparison_view.h"
#include "method/method_registry.h"
#include "engine/run.h"
#include "results/run_files.h"
#include "screenshots.h"
#include "time_limits.h"

using namespace milab;

namespace {

// A two-column table whose columns share about 0.5 nats (y = x + noise), as a user's CSV.
QString writeTable(const QTemporaryDir& tmp) {
  const QString path = tmp.filePath("pairs.csv");
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write("x,y\n");
  quint32 state = 12345;
  const auto uniform = [&] { return (state = state * 1664525u + 1013904223u) / 4294967296.0; };
  for (int i = 0; i < 600; ++i) {
    const double x = uniform() - 0.5, y = x + 0.4 * (uniform() - 0.5);
    f.write(QByteArray::number(x, 'g', 9) + "," + QByteArray::number(y, 'g', 9) + "\n");
  }
  return path;
}

// The run as summary.json records it: its experiment, key by key.
QJsonObject recorded(const RunSpec& spec) { return summaryJson(spec, RunResult{}).value("experiment").toObject(); }

}  // namespace

class TestWindowRunnerParity : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
  }

  void theFormStartsTheRunnersRun_data() {
    QTest::addColumn<QString>("task");
    QTest::addColumn<int>("samples");  // 0: fresh batches (a law), or every row (a table)
    QTest::addColumn<QString>("method");
    const auto row = [](const QString& task, int samples, const QString& method) {
      QTest::newRow(qPrintable(QStringLiteral("%1 %2 %3").arg(method, task).arg(samples))) << task << samples << method;
    };
    for (const char* method : {"infonce", "minde-c", "ksg"})
      for (const char* task : {"gaussian2", "multinormal-sparse-5-5-2-2.0", "beyond-normal", "data"})
        for (int samples : {0, 2000})
          if (QString(task) != "data" || !samples) row(task, samples, method);  // a table's rows are its finite set
    // The triple's methods (DEMI reads p(y|x'), which a finite set has not: both refuse alike) and the image views.
    for (const char* method : {"demi", "infonce", "ksg-cmi"})
      for (int samples : {0, 2000}) row("gaussian3", samples, method);
    for (const char* method : {"demi-vision", "demi-vision-is", "infonce-vision"})
      row("fashion-mnist-views", 0, method);
  }
  void theFormStartsTheRunnersRun() {
    QFETCH(QString, task);
    QFETCH(int, samples);
    QFETCH(QString, method);
    QTemporaryDir tmp;
    const QString table = writeTable(tmp);
    MainWindow w(registry_, tmp.filePath("history.sqlite"));
    w.show();
    if (task == "data") {
      w.openData(table);
    } else {
      auto* taskCombo = w.findChild<QComboBox*>("taskCombo");
      taskCombo->setCurrentIndex(taskCombo->findData(task));
    }
    auto* methodCombo = w.findChild<QComboBox*>("methodCombo");
    methodCombo->setCurrentIndex(methodCombo->findData(method));
    if (task != "data") w.findChild<QSpinBox*>("param.samples")->setValue(samples);
    QCoreApplication::processEvents();
    RunSpec windows = w.panel()->spec();
    const QString windowError = validateRunSpec(&windows, registry_);

    // The same task, method and keys: the task's keys as the form shows them (the default experiment's mi 10 at
    // dim 20, a table's file and columns), the method's and the run's left to their defaults and the recipe.
    QJsonObject file = QJsonObject::fromVariantMap(windows.taskParams);
    file.insert("task", task);
    file.insert("method", method);
    if (samples) file.insert("samples", samples);
    Experiment experiment;
    QList<GridCell> cells;
    QString runnerError = parseExperiment(QJsonDocument(file).toJson(), "parity.json", &experiment);
    if (runnerError.isEmpty()) runnerError = expandExperiment(experiment, registry_, &cells);
    QCOMPARE(windowError, runnerError);  // both refuse alike (KSG on fresh batches of a law reads a set of its own)
    if (!runnerError.isEmpty()) return;
    QCOMPARE(cells.size(), 1);
    const QJsonObject fromWindow = recorded(windows), fromRunner = recorded(cells.first().spec);
    for (auto it = fromRunner.begin(); it != fromRunner.end(); ++it)
      QVERIFY2(fromWindow.value(it.key()) == it.value(),
               qPrintable(QStringLiteral("%1: window %2, runner %3")
                              .arg(it.key(), QString(QJsonDocument(QJsonObject{{"v", fromWindow.value(it.key())}})
                                                         .toJson(QJsonDocument::Compact)),
                                   QString(QJsonDocument(QJsonObject{{"v", it.value()}})
                                               .toJson(QJsonDocument::Compact)))));
    QCOMPARE(fromWindow.keys(), fromRunner.keys());
  }

  // A set of four methods of four kinds under the lab's recipe (issue 79: the form carried InfoNCE's held_out whole
  // to mmg and minde-c, which refused it): it starts, every run finishes, and each run is the runner's run of its
  // method with the keys the user typed (samples, steps).
  void aSetOfMixedMethodsRunsUnderTheRecipe() {
    QTemporaryDir tmp;
    MainWindow w(registry_, tmp.filePath("history.sqlite"));
    w.resize(1280, 720);
    w.show();
    auto* taskCombo = w.findChild<QComboBox*>("taskCombo");
    taskCombo->setCurrentIndex(taskCombo->findData("gaussian2"));
    auto* methodCombo = w.findChild<QComboBox*>("methodCombo");
    methodCombo->setCurrentIndex(methodCombo->findData("infonce"));
    w.findChild<QSpinBox*>("param.dim")->setValue(2);
    w.findChild<QSpinBox*>("param.samples")->setValue(1000);
    w.findChild<QSpinBox*>("param.steps")->setValue(40);
    const QStringList others{"mmg", "minde-c", "ksg"};
    auto* list = w.findChild<QListWidget*>("compareMethods");
    for (int i = 0; i < list->count(); ++i)
      if (others.contains(list->item(i)->data(Qt::UserRole).toString())) list->item(i)->setCheckState(Qt::Checked);
    QTest::mouseClick(w.findChild<QAbstractButton*>("runButton"), Qt::LeftButton);
    QVERIFY2(w.refusal().isEmpty(), qPrintable(w.refusal()));
    ComparisonView* set = w.comparison();
    QCOMPARE(set->size(), 4);
    QTRY_VERIFY_WITH_TIMEOUT(!set->running(), untilDoneMs());
    for (int i = 0; i < set->size(); ++i) {
      const Run* run = set->run(i);
      QVERIFY2(run->result().status == RunStatus::Finished,
               qPrintable(run->spec().method + ": " + run->result().reason));
      QJsonObject file = QJsonObject::fromVariantMap(run->spec().taskParams);
      file.insert("task", "gaussian2");
      file.insert("method", run->spec().method);
      file.insert("samples", 1000);
      file.insert("steps", 40);
      Experiment experiment;
      QList<GridCell> cells;
      QCOMPARE(parseExperiment(QJsonDocument(file).toJson(), "set.json", &experiment), QString());
      QCOMPARE(expandExperiment(experiment, registry_, &cells), QString());
      QCOMPARE(recorded(run->spec()), recorded(cells.first().spec));
    }
    // At 1280 x 720 the legend names each run by its method alone (the keys each method's recipe set differ, but
    // none within a method), and the data keep most of the plot's height (issue 79: 12-line labels left 60 px).
    QCoreApplication::processEvents();
    auto* plot = w.findChild<QCustomPlot*>("runPlot");
    plot->replot();
    for (int i = 0; i < set->size(); ++i) QCOMPARE(set->label(i), set->specs()[i].method);
    saveScreenshot(w, "mixed-recipe-set-1280x720");
    QVERIFY2(plot->axisRect()->height() > plot->height() / 2,
             qPrintable(QStringLiteral("%1 of %2 px").arg(plot->axisRect()->height()).arg(plot->height())));
  }

 private:
  MethodRegistry registry_;
};

QTEST_MAIN(TestWindowRunnerParity)
#include "test_window_runner_parity.moc"
