// milab, the window's entry point: its command line (an experiment file, --run, --out, --screenshot, --db), the
// method plugins loaded, the lab shown.
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QMessageBox>
#include <QTimer>
#include <cstdio>
#include <optional>

#include "engine/device.h"
#include "engine/experiment.h"
#include "engine/run_spec.h"
#include "gui/main_window.h"
#include "gui/platform_start.h"
#include "gui/panels/experiment_panel.h"
#include "method/method_registry.h"
#include "method/plugin_install_check.h"
#include "results/run_store.h"

// milab [EXPERIMENT.json] [--run] [--out DIR]: opens the lab on an experiment (the bundled default when none is
// given); a grid experiment runs at once into DIR.
int main(int argc, char** argv) {
  std::optional<milab::PlatformStart> platformStart(std::in_place);  // no display: one line and exit 2, not an abort
  QApplication app(argc, argv);
  platformStart.reset();
  QApplication::setApplicationName("milab");
  QApplication::setApplicationVersion(MILAB_VERSION);
  // The installed icon theme's milab (share/icons/hicolor), else the same picture compiled in.
  QApplication::setWindowIcon(QIcon::fromTheme("milab", QIcon(":/desktop/milab.svg")));
  QCommandLineParser parser;
  parser.setApplicationDescription("A desktop lab for mutual-information estimators.");
  parser.addHelpOption();
  parser.addPositionalArgument("experiment", "experiment file (JSON); default: the bundled default experiment");
  parser.addOption({"run", "start the experiment at once"});
  parser.addOption({"out", "a grid experiment's results folder (a grid starts at once)", "DIR"});
  parser.addOption({"screenshot",
                    "save the window to FILE, then quit: when the run (--run) or grid (--out) ends, at once without "
                    "them; exit 2, with the refusal pictured, when they cannot start",
                    "FILE"});
  parser.addOption({"size", "the window's size in pixels, e.g. 1600x1000 (the docs' pictures are taken at one size)",
                    "WxH"});
  parser.addOption({"db", "the run history's database (default: $MILAB_DB, else the user's data folder)", "PATH"});
  parser.addVersionOption();
  parser.process(app);

  milab::initTorchRuntime();
  milab::MethodRegistry registry;
  registry.loadDefault();
  // An install without its plugins folder, or with a plugin that does not load: said in a dialog, not a lab that
  // silently lacks its methods (or a crash on the first run).
  // With --screenshot nobody is there to click: the dialog is saved as the picture instead of waiting.
  const QString screenshot = parser.value("screenshot");
  if (const QString problem = milab::pluginInstallProblem(&registry); !problem.isEmpty()) {
    std::fprintf(stderr, "milab: %s\n", problem.toLocal8Bit().constData());
    QMessageBox dialog(QMessageBox::Critical, "milab cannot start", problem);
    if (screenshot.isEmpty()) {
      dialog.exec();
    } else {
      dialog.show();
      QCoreApplication::processEvents();
      dialog.grab().save(screenshot);
    }
    return 2;
  }
  milab::MainWindow window(registry, parser.isSet("db") ? parser.value("db") : milab::defaultHistoryPath());

  const QString path = parser.positionalArguments().value(0, milab::kDefaultExperiment);
  milab::Experiment experiment;
  QString err = milab::readExperiment(path, &experiment);
  const bool grid = err.isEmpty() && experiment.isGrid();
  if (grid && !parser.isSet("out"))
    err =
        QStringLiteral(
            "out: '%1' is a grid; give --out DIR for its results, or open it with Experiments > Open as comparison set")
            .arg(path);
  if (err.isEmpty()) err = window.openExperiment(path, parser.value("out"));  // a grid starts at once
  if (parser.isSet("size")) {
    const QStringList wh = parser.value("size").split('x');
    bool okW = false, okH = false;
    const int width = wh.value(0).toInt(&okW), height = wh.value(1).toInt(&okH);
    if (wh.size() != 2 || !okW || !okH || width < 320 || height < 240 || width > 10000 || height > 10000) {
      std::fprintf(stderr, "milab: size: '%s' is not WxH with W in [320, 10000] and H in [240, 10000]\n",
                   parser.value("size").toLocal8Bit().constData());
      return 2;
    }
    window.resize(width, height);
  }
  window.show();
  if (!err.isEmpty()) {  // said in the window too: it opened the default run instead
    std::fprintf(stderr, "milab: %s\n", err.toLocal8Bit().constData());
    window.showMessage(QStringLiteral("%1 (the default experiment is in the form instead)").arg(err));
  }
  const bool started = err.isEmpty() && (grid || (parser.isSet("run") && window.startRun()));
  if (!screenshot.isEmpty()) {
    // A scripted window ends by itself: what did not start (an unreadable file, a form the run refused) is saved as
    // it shows it, exit 2; without --run the window as it opened, exit 0; else the window once its run or grid ended.
    const auto save = [&window, screenshot](int code) {
      QCoreApplication::processEvents();
      QCoreApplication::exit(window.grab().save(screenshot) ? code : 1);
    };
    const bool refused = !err.isEmpty() || (parser.isSet("run") && !started);
    if (refused && err.isEmpty() && !window.refusal().isEmpty())
      std::fprintf(stderr, "milab: %s\n", window.refusal().toLocal8Bit().constData());
    if (refused || !started) {
      QTimer::singleShot(0, &window, [save, refused] { save(refused ? 2 : 0); });
    } else {
      auto* poll = new QTimer(&window);
      QObject::connect(poll, &QTimer::timeout, &window, [&window, save] {
        // The run's end, and the window's drawing of it: the set's tick shows the result and frees the form at once.
        if (window.busy() || window.panel()->running()) return;
        save(0);
      });
      poll->start(200);
    }
  }
  return app.exec();
}
