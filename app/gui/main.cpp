#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>

#include "engine/device.h"
#include "engine/experiment.h"
#include "engine/run_spec.h"
#include "gui/main_window.h"
#include "method/method_registry.h"

// milab [EXPERIMENT.json] [--run]: opens the lab on an experiment (the bundled default when none is given).
int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("milab");
  QCommandLineParser parser;
  parser.setApplicationDescription("A desktop lab for mutual-information estimators.");
  parser.addHelpOption();
  parser.addPositionalArgument("experiment", "experiment file (JSON); default: the bundled default experiment");
  parser.addOption({"run", "start the experiment at once"});
  parser.addOption({"screenshot", "with --run: save the window to FILE when the run ends, then quit", "FILE"});
  parser.process(app);

  milab::initTorchRuntime();
  milab::MethodRegistry registry;
  registry.loadDefault();
  milab::MainWindow window(registry);

  const QString path = parser.positionalArguments().value(0, ":/experiments/default.json");
  milab::Experiment experiment;
  QList<milab::GridCell> cells;
  QString err = milab::readExperiment(path, &experiment);
  if (err.isEmpty() && experiment.isGrid())
    err = QStringLiteral(
              "experiment: '%1' is a grid; the window runs one experiment at a time, run grids with "
              "milab-cli run %1 --out DIR")
              .arg(path);
  if (err.isEmpty()) err = milab::expandExperiment(experiment, registry, &cells);
  milab::RunSpec spec = cells.isEmpty() ? milab::RunSpec() : cells.first().spec;
  if (!err.isEmpty())
    std::fprintf(stderr, "milab: %s\n", err.toLocal8Bit().constData());
  else
    window.setSpec(spec);
  window.show();
  if (parser.isSet("run") && err.isEmpty() && window.startRun() && parser.isSet("screenshot")) {
    auto* poll = new QTimer(&window);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, &parser] {
      if (!window.currentRun()->isFinished()) return;
      QCoreApplication::processEvents();  // let the window show the result first
      const bool saved = window.grab().save(parser.value("screenshot"));
      QCoreApplication::exit(saved ? 0 : 1);
    });
    poll->start(200);
  }
  return app.exec();
}
