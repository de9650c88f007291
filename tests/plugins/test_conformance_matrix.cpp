// Every method on every path either runs or is refused: each loaded method x each task family (a Gaussian pair, a
// Gaussian triple, a Beyond-Normal id, a user's table, image views) x each protocol (fresh batches, a finite sample
// set, an MI staircase, the oracle critic). A cell either is refused at validation, in one line that starts with
// the key at fault (what milab-cli prints with exit 2 before it writes anything), or finishes a few steps with a
// finite reading, or ends failed by the run's own plausibility rule (an estimate that three steps leave outside what
// the method can read, e.g. NWJ at -12 or a density model's log Z still at its start, said with what to change).
// Never a crash, never another failure after validation let the run through (an exception, a NaN, a missing
// sampler: files would already be written by then). Methods and tasks added later get their rows here unasked.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <random>

#include "engine/device.h"
#include "engine/run.h"
#include "engine/run_settings_options.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

// A table of 400 rows: two x columns, two y columns each y_i = x_i + noise, and two x' columns (x plus noise).
QString writeTable(const QString& path) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  file.write("x0,x1,y0,y1,xp0,xp1\n");
  for (int r = 0; r < 400; ++r) {
    const double x0 = normal(rng), x1 = normal(rng);
    file.write(QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                   .arg(x0)
                   .arg(x1)
                   .arg(x0 + 0.5 * normal(rng))
                   .arg(x1 + 0.5 * normal(rng))
                   .arg(x0 + normal(rng))
                   .arg(x1 + normal(rng))
                   .toUtf8());
  }
  return path;
}

// Every key a refusal may start with: the run's settings, the task's and the method's keys, a key the cell set (one
// its task or method does not take is refused by name), and the two ids.
bool namesAKey(const QString& message, const RunSpec& cell, const TaskInfo& task, const MethodInfo& method) {
  const QString key = message.section(':', 0, 0);
  if (key == "task" || key == "method" || cell.taskParams.contains(key) || cell.methodParams.contains(key)) return true;
  for (const ParamSpecs* specs : {&runSettingSpecs(), &task.params, &method.params})
    if (findSpec(*specs, key)) return true;
  return false;
}

}  // namespace

class TestConformanceMatrix : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
    QVERIFY(dir_.isValid());
    table_ = writeTable(dir_.filePath("table.csv"));
  }

  void everyCellRunsOrIsRefused_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("protocol");
    const QStringList tasks{"gaussian2", "gaussian3", "multinormal-sparse-3-3-2-2.0", "data", "fashion-mnist-views"};
    for (const QString& method : registry_.ids())
      for (const QString& task : tasks)
        for (const QString protocol : {"fresh", "samples", "staircase", "oracle"})
          QTest::newRow(qPrintable(method + " " + task + " " + protocol)) << method << task << protocol;
  }
  void everyCellRunsOrIsRefused() {
    QFETCH(QString, method);
    QFETCH(QString, task);
    QFETCH(QString, protocol);
    RunSpec s = cell(method, task, protocol);
    const QString refusal = validateRunSpec(&s, registry_);
    const MethodInfo info = registry_.find(method)->info();
    if (!refusal.isEmpty()) {
      qInfo("refused: %s", qPrintable(refusal));
      QVERIFY2(!refusal.contains('\n'), qPrintable(refusal));
      QVERIFY2(namesAKey(refusal, s, *findTask(s.task), info), qPrintable(refusal));
      ++refused_;
      return;
    }
    Run run(s, registry_.find(method));
    const RunResult r = runToCompletion(run);
    qInfo("ran: %s %.4f", qPrintable(statusName(r.status)), r.estimate);
    QVERIFY2(std::isfinite(r.estimate), qPrintable(QString::number(r.estimate) + " " + r.reason));
    ++ran_;
    if (r.status == RunStatus::Failed && r.reason.startsWith("estimate ") && r.reason.contains(" is implausible ")) {
      ++implausible_;
      return;
    }
    QVERIFY2(r.status == RunStatus::Finished, qPrintable(statusName(r.status) + ": " + r.reason));
  }

  // Both kinds of cell occur: a matrix that refused everything (or nothing) would say little.
  void cleanupTestCase() {
    qInfo("%d cells ran (%d of them implausible after three steps), %d were refused", ran_, implausible_, refused_);
    QVERIFY(ran_ > 100);
    QVERIFY(refused_ > 100);
  }

 private:
  RunSpec cell(const QString& method, const QString& task, const QString& protocol) const {
    const MethodInfo info = registry_.find(method)->info();
    RunSpec s;
    s.task = task;
    s.method = method;
    s.seed = 1;
    s.device = "cpu";
    s.steps = 3;
    s.evalBatches = 20;  // the least a run takes
    if (task == "gaussian2" || task == "gaussian3") s.taskParams = {{"dim", 2}, {"mi", 1.0}};
    if (task == "data")
      s.taskParams = {{"file", table_}, {"x_columns", "0,1"}, {"y_columns", "2,3"}, {"xp_columns", "4,5"}};
    if (findSpec(info.params, "K")) s.methodParams.insert("K", 16);
    if (findSpec(info.params, "batch")) s.methodParams.insert("batch", 16);
    if (findSpec(info.params, "set_size")) s.methodParams.insert("set_size", 100);
    if (protocol == "samples") {
      s.samples = 200;
      s.evalEvery = 2;
    } else if (protocol == "staircase") {
      s.taskParams.insert("mi_schedule", "0.5,1");
      s.taskParams.insert("steps_per_level", 2);
    } else if (protocol == "oracle") {
      s.methodParams.insert("critic", "oracle");
    }
    return s;
  }

  MethodRegistry registry_;
  QTemporaryDir dir_;
  QString table_;
  int ran_ = 0, implausible_ = 0, refused_ = 0;
};

QTEST_GUILESS_MAIN(TestConformanceMatrix)
#include "test_conformance_matrix.moc"
