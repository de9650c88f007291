// How responsive the window stays while runs train: the event loop's stalls (p50, p99, max) and the plot's
// refresh rate, with 1 and with 4 runs of InfoNCE at K = 128 (d = 20) training at once and the plot following
// them live. A 1 ms timer measures the loop: each gap beyond its interval is a stall the user would feel.
//   usage: QT_QPA_PLATFORM=offscreen bench_window [seconds per case = 5]
#include <qcustomplot.h>

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSpinBox>
#include <QTimer>
#include <QtTest/QTest>
#include <algorithm>
#include <cstdio>

#include "engine/device.h"
#include "gui/main_window.h"
#include "gui/views/comparison_view.h"
#include "method/method_registry.h"

using namespace milab;

namespace {

struct Measure {
  double p50 = 0, p99 = 0, max = 0, replotsPerSecond = 0;
  int runsTraining = 0;
};

Measure measure(const MethodRegistry& registry, int runs, double seconds) {
  MainWindow w(registry);
  w.resize(1280, 720);
  w.show();
  auto* method = w.findChild<QComboBox*>("methodCombo");
  method->setCurrentIndex(method->findData("infonce"));
  w.findChild<QComboBox*>("taskCombo")->setCurrentIndex(w.findChild<QComboBox*>("taskCombo")->findData("gaussian2"));
  w.findChild<QSpinBox*>("param.dim")->setValue(20);
  w.findChild<QSpinBox*>("param.K")->setValue(128);
  w.findChild<QSpinBox*>("param.steps")->setValue(10000000);
  w.findChild<QComboBox*>("param.device")->setCurrentText("cpu");
  QStringList seeds;
  for (int i = 1; i <= runs; ++i) seeds << QString::number(i);
  w.findChild<QLineEdit*>("varyEdit")->setText(runs > 1 ? "seed=" + seeds.join(',') : QString());
  w.findChild<QSpinBox*>("jobsSpin")->setValue(runs);
  w.startRun();

  int replots = 0;
  QObject::connect(w.findChild<QCustomPlot*>("runPlot"), &QCustomPlot::afterReplot, [&replots] { ++replots; });
  QVector<double> gaps;
  QElapsedTimer clock, total;
  QTimer probe;
  probe.setTimerType(Qt::PreciseTimer);
  probe.setInterval(1);
  QObject::connect(&probe, &QTimer::timeout, [&] {
    gaps << std::max(0.0, clock.nsecsElapsed() * 1e-6 - 1.0);
    clock.restart();
  });
  QTest::qWait(1000);  // the runs start and the plot fills before measuring
  replots = 0;
  clock.start();
  total.start();
  probe.start();
  while (total.elapsed() < seconds * 1000) QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
  probe.stop();
  Measure m;
  for (int i = 0; i < w.comparison()->size(); ++i) m.runsTraining += w.comparison()->status(i) == RunStatus::Running;
  std::sort(gaps.begin(), gaps.end());
  if (!gaps.isEmpty()) {
    m.p50 = gaps[gaps.size() / 2];
    m.p99 = gaps[int(0.99 * (gaps.size() - 1))];
    m.max = gaps.last();
  }
  m.replotsPerSecond = replots / (total.elapsed() * 1e-3);
  w.stopRun();
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  const double seconds = argc > 1 ? std::atof(argv[1]) : 5.0;
  initTorchRuntime();
  MethodRegistry registry;
  registry.loadDefault();
  std::printf("event-loop stalls while runs train (InfoNCE, gaussian2 d=20, K=128), %.0f s each\n", seconds);
  std::printf("%-6s %-9s %10s %10s %10s %14s\n", "runs", "training", "p50 ms", "p99 ms", "max ms", "replots/s");
  for (int runs : {1, 4}) {
    const Measure m = measure(registry, runs, seconds);
    std::printf("%-6d %-9d %10.2f %10.2f %10.2f %14.1f\n", runs, m.runsTraining, m.p50, m.p99, m.max,
                m.replotsPerSecond);
  }
  return 0;
}
