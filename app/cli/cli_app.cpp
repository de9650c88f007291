#include "cli/cli_app.h"

#include <qcustomplot.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QThread>
#include <atomic>
#include <csignal>
#include <cstdio>

#include "cli/grid_runner.h"
#include "cli/hashing_runner.h"
#include "cli/prior_order_runner.h"
#include "cli/progress_bar.h"
#include "engine/device.h"
#include "engine/experiment.h"
#include "engine/prior_order_sweep.h"
#include "engine/run.h"
#include "engine/run_spec.h"
#include "hashing/hashing_experiment.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "plot/grid_outputs.h"
#include "plot/plot_export.h"
#include "plot/run_plot.h"
#include "results/run_files.h"

namespace milab {

namespace {

constexpr int kBadInput = 2;
constexpr int kInterrupted = 130;  // the shell's convention for SIGINT; the results are written all the same
std::atomic<bool> interrupted{false};

const char* kUsage =
    "usage: milab-cli methods\n"
    "       milab-cli run [EXPERIMENT.json] --out DIR [--task gaussian2|gaussian3] [--dim N] [--mi NATS]\n"
    "                 [--alpha A] [--method ID] [--K N] [--steps N] [--lr LR] [--seed N]\n"
    "                 [--device auto|cpu|cuda] [--<any parameter the task or method declares> VALUE]\n"
    "                 [--jobs N]\n"
    "A value with commas (--K 8,64,512) sweeps it; so does a \"grid\" in the file. A grid writes one folder\n"
    "per cell under DIR/cells, DIR/grid.csv and the figure the grid's shape calls for (estimate_vs_K,\n"
    "estimate_vs_truth, staircase or estimates .{png,pdf,svg}), running N cells at a time and reusing the\n"
    "finished cells of an earlier, interrupted invocation. --mi-schedule 2,4,6 --steps-per-level N makes an MI\n"
    "staircase (staircase.{png,pdf,svg} and staircase.csv: bias, variance and MSE per level).\n"
    "       milab-cli prior-orders [EXPERIMENT.json] --out DIR [--method bmmi|ammi] [--bits M] [--steps N]\n"
    "                 [--max-order R] [--fit-steps N] [--fit-lr LR] [--fixed-batch N] [--<task/method key> VALUE]\n"
    "AMMI's Figure 1(a): trains the encoder for --steps, freezes it, and reads the best order-r prior's cross\n"
    "entropy (closed form, and fitted by Adam) for r up to R against the brute-force H(Z) of a fixed batch:\n"
    "DIR/summary.json, DIR/prior_orders.csv and DIR/prior_orders.{png,pdf,svg}.\n"
    "       milab-cli hashing [EXPERIMENT.json] --out DIR [--bits 16,32,64] [--steps N] [--lr LR] [--beta B]\n"
    "                 [--order-prior R] [--train-limit N] [--query-limit N] [--top-k K] [--seed N] [--device D]\n"
    "Fashion-MNIST (Debian's dataset-fashion-mnist) hashed by AMMI and by random-projection LSH; top-K\n"
    "precision by Hamming distance: DIR/hashing.csv and DIR/summary.json.\n";

int badInput(const QString& line) {
  std::fprintf(stderr, "milab-cli: %s\n", line.toLocal8Bit().constData());
  return kBadInput;
}

void reportLoadErrors(const MethodRegistry& registry) {
  for (const PluginLoadError& e : registry.errors())
    std::fprintf(stderr, "milab-cli: warning: plugin %s not loaded: %s\n", e.file.toLocal8Bit().constData(),
                 e.reason.toLocal8Bit().constData());
}

int listMethods(const MethodRegistry& registry) {
  reportLoadErrors(registry);
  for (const MethodPlugin* m : registry.methods()) {
    const MethodInfo info = m->info();
    std::printf("%s\t%s\n", info.id.toUtf8().constData(), info.displayName.toUtf8().constData());
  }
  return 0;
}

void onInterrupt(int) { interrupted.store(true); }

struct CommandLine {
  QString experimentPath, outDir, jobsText = "1";
  QVariantMap overrides;
};

// [EXPERIMENT.json] --out DIR [--jobs N] [--key value | --key=value ...]. Returns "" or the error line.
QString parseCommandLine(const QStringList& args, CommandLine* cl) {
  for (int i = 0; i < args.size(); ++i) {
    const QString& a = args[i];
    if (!a.startsWith("--")) {
      if (!cl->experimentPath.isEmpty()) return QStringLiteral("experiment: only one file allowed, got '%1'").arg(a);
      cl->experimentPath = a;
      continue;
    }
    QString key = a.mid(2), value;
    if (key.contains('=')) {
      value = key.section('=', 1);
      key = key.section('=', 0, 0);
    } else {
      if (i + 1 >= args.size()) return QStringLiteral("%1: needs a value").arg(key);
      value = args[++i];
    }
    key.replace('-', '_');  // --eval-batches and --eval_batches alike
    if (key == "out")
      cl->outDir = value;
    else if (key == "jobs")
      cl->jobsText = value;
    else
      cl->overrides.insert(key, value);
  }
  return {};
}

// The command line, then the experiment file it names with the flags applied on top. "" or the error line.
QString readCommand(const QStringList& args, CommandLine* cl, Experiment* experiment) {
  QString err = parseCommandLine(args, cl);
  if (err.isEmpty() && !cl->experimentPath.isEmpty()) err = readExperiment(cl->experimentPath, experiment);
  if (err.isEmpty()) applyOverrides(cl->overrides, experiment);
  return err;
}

QString prepareOutDir(const QString& outDir) {
  if (outDir.isEmpty()) return "out: required, the folder for the results (--out DIR)";
  if (QFileInfo(outDir).exists() && !QFileInfo(outDir).isDir())
    return QStringLiteral("out: '%1' exists and is not a folder").arg(outDir);
  if (!QDir().mkpath(outDir)) return QStringLiteral("out: cannot create folder '%1'").arg(outDir);
  return {};
}

int runPriorOrderCommand(const QStringList& args, const MethodRegistry& registry) {
  CommandLine cl;
  Experiment experiment;
  QString err = readCommand(args, &cl, &experiment);
  if (!err.isEmpty()) return badInput(err);
  PriorOrderSweepSpec spec;
  err = priorOrderSweepFromExperiment(experiment, registry, &spec);
  if (err.isEmpty()) err = prepareOutDir(cl.outDir);
  if (!err.isEmpty()) return badInput(err);
  std::signal(SIGINT, onInterrupt);
  return runPriorOrders(spec, *registry.find(spec.encoder.method), cl.outDir, interrupted);
}

int runHashingCommandLine(const QStringList& args) {
  CommandLine cl;
  Experiment experiment;
  QString err = readCommand(args, &cl, &experiment);
  if (!err.isEmpty()) return badInput(err);
  HashingSpec spec;
  err = hashingSpecFromExperiment(experiment, &spec);
  if (err.isEmpty()) err = hashingDataMissing();
  if (err.isEmpty()) err = prepareOutDir(cl.outDir);
  if (!err.isEmpty()) return badInput(err);
  std::signal(SIGINT, onInterrupt);
  return runHashingCommand(spec, cl.outDir, interrupted);
}

int runExperiment(const QStringList& args, const MethodRegistry& registry) {
  CommandLine cl;
  Experiment experiment;
  QString err = readCommand(args, &cl, &experiment);
  if (!err.isEmpty()) return badInput(err);
  QList<GridCell> cells;
  err = expandExperiment(experiment, registry, &cells);
  if (!err.isEmpty()) return badInput(err);
  bool jobsOk = false;
  const int jobs = cl.jobsText.toInt(&jobsOk);
  if (!jobsOk || jobs < 1 || jobs > 256)
    return badInput(QStringLiteral("jobs: must be an integer in [1, 256], got '%1'").arg(cl.jobsText));
  err = prepareOutDir(cl.outDir);
  if (!err.isEmpty()) return badInput(err);
  const QString outDir = cl.outDir;

  std::signal(SIGINT, onInterrupt);  // Ctrl-C cancels the run; what it measured is still written
  if (experiment.isGrid()) return runGrid(cells, outDir, jobs, registry, interrupted);
  const RunSpec& spec = cells.first().spec;
  Run run(spec, registry.find(spec.method));
  run.start();
  ProgressBar bar(stderr);
  while (!run.wait(100)) {
    if (interrupted.load()) run.cancel();
    const QVector<CurvePoint> pts = run.takeNewPoints();
    if (!pts.isEmpty()) bar.update(pts.last().step, spec.steps, pts.last().estimate, pts.last().seconds);
  }
  bar.finish();
  const RunResult result = run.result();
  const QVector<CurvePoint> curve = run.curve();

  const QDir dir(outDir);
  QStringList errors;
  errors << writeSummaryJson(dir.filePath("summary.json"), spec, result)
         << writeCurveCsv(dir.filePath("curve.csv"), curve);
  QCustomPlot plot;
  RunPlot runPlot(&plot);
  runPlot.showRun(spec, result, curve);
  for (const char* name : {"plot.png", "plot.pdf", "plot.svg"}) errors << exportPlot(&plot, dir.filePath(name));
  if (!result.levels.isEmpty())  // the staircase figure and its per-level table
    errors << writeFigureFiles(outDir, {FigureRun{spec, result, curve}}, {spec.method});
  errors.removeAll(QString());
  for (const QString& e : errors) std::fprintf(stderr, "milab-cli: %s\n", e.toLocal8Bit().constData());

  const QString ceiling =
      result.ceilings.isEmpty()
          ? QStringLiteral("no ceiling")
          : QStringLiteral("%1 = %2").arg(result.ceilings[0].name).arg(result.ceilings[0].value, 0, 'f', 4);
  std::printf("%s %s: estimate %.4f +- %.4f nats, true %s %.4f, %s (%s, %.1f s, %s)\n",
              spec.method.toUtf8().constData(), spec.task.toUtf8().constData(), result.estimate, result.stderror,
              result.targetName.toUtf8().constData(), result.trueMi, ceiling.toUtf8().constData(),
              statusName(result.status).toUtf8().constData(), result.seconds, result.device.toUtf8().constData());
  if (result.status == RunStatus::Failed) {
    std::fprintf(stderr, "milab-cli: run failed: %s\n", result.reason.toLocal8Bit().constData());
    return 1;
  }
  if (result.status == RunStatus::Cancelled) return kInterrupted;
  return errors.isEmpty() ? 0 : 1;
}

}  // namespace

int cliMain(int argc, char** argv) {
  // Plots are rendered off screen: the runner needs no display.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  // Without it Qt prints a warning on stderr, where bad input must get exactly one line.
  if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
    const QByteArray dir = QDir::tempPath().toLocal8Bit() + "/milab-runtime-" + QByteArray::number(getuid());
    ::mkdir(dir.constData(), 0700);
    qputenv("XDG_RUNTIME_DIR", dir);
  }
  QApplication app(argc, argv);
  QStringList args = app.arguments().mid(1);
  if (args.isEmpty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.isEmpty() ? stderr : stdout);
    return args.isEmpty() ? kBadInput : 0;
  }
  initTorchRuntime();
  MethodRegistry registry;
  registry.loadDefault();
  const QString command = args.takeFirst();
  if (command == "methods") return listMethods(registry);
  if (command == "run" || command == "prior-orders") reportLoadErrors(registry);
  if (command == "run") return runExperiment(args, registry);
  if (command == "prior-orders") return runPriorOrderCommand(args, registry);
  if (command == "hashing") return runHashingCommandLine(args);
  return badInput(QStringLiteral("command: must be one of methods|run|prior-orders|hashing, got '%1'").arg(command));
}

}  // namespace milab
