#include "cli/cli_app.h"

#include <qcustomplot.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QRegularExpression>
#include <QThread>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>

#include "cli/command_line.h"
#include "cli/display_units_choice.h"
#include "cli/grid_runner.h"
#include "cli/hashing_runner.h"
#include "cli/history_commands.h"
#include "cli/method_listing.h"
#include "cli/mpi_grid.h"
#include "cli/prior_order_runner.h"
#include "cli/progress_bar.h"
#include "cli/sample_command.h"
#include "cli/stop_signals.h"
#include "cli/task_listing.h"
#include "cli/usage.h"
#include "engine/device.h"
#include "engine/experiment.h"
#include "engine/prior_order_sweep.h"
#include "engine/run.h"
#include "engine/run_spec.h"
#include "hashing/hashing_experiment.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "method/plugin_install_check.h"
#include "params/plain_number.h"
#include "plot/embedding_figure.h"
#include "plot/grid_outputs.h"
#include "plot/plot_export.h"
#include "plot/run_plot.h"
#include "results/out_folder.h"
#include "results/reading_words.h"
#include "results/run_files.h"
#include "results/run_store.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

constexpr int kBadInput = 2;
// Named once for the many calls below; the handlers only set it.
const std::atomic<bool>& interrupted = stopRequested();

int badInput(const QString& line) {
  std::fprintf(stderr, "milab-cli: %s\n", withLongValuesCut(line).toLocal8Bit().constData());
  return kBadInput;
}

// --check: the experiment passed every check a run makes before its first step (tasks, methods, ranges, memory);
// say so and write nothing (the docs' commands are checked this way: test_docs).
int checkedOnly(const QString& what) {
  std::printf("valid: %s; nothing run (--check)\n", what.toUtf8().constData());
  return 0;
}

// The experiment file the command line names, with its flags applied on top. "" or the error line.
QString readCommand(const CommandLine& cl, Experiment* experiment) {
  QString err;
  if (!cl.positional.isEmpty()) err = readExperiment(cl.positional, experiment);
  if (err.isEmpty()) applyOverrides(cl.overrides, experiment);
  return err;
}

int runPriorOrderCommand(const CommandLine& cl, const MethodRegistry& registry) {
  Experiment experiment;
  QString err = readCommand(cl, &experiment);
  if (!err.isEmpty()) return badInput(err);
  PriorOrderSweepSpec spec;
  err = priorOrderSweepFromExperiment(experiment, registry, &spec);
  if (err.isEmpty() && cl.flags.contains("check")) return checkedOnly("a prior-order sweep of " + spec.encoder.method);
  std::unique_ptr<QLockFile> lock;
  if (err.isEmpty()) catchStopSignals();  // before the claim: once the folder's lock exists, a signal is caught
  if (err.isEmpty()) err = claimOutFolder(cl.outDir, &lock);
  if (!err.isEmpty()) return badInput(err);
  return exitCode(runPriorOrders(spec, *registry.find(spec.encoder.method), cl.outDir, interrupted));
}

int runHashingCommandLine(const CommandLine& cl, const MethodRegistry& registry) {
  Experiment experiment;
  QString err = readCommand(cl, &experiment);
  if (!err.isEmpty()) return badInput(err);
  HashingSpec spec;
  err = hashingSpecFromExperiment(experiment, registry, &spec);
  if (err.isEmpty()) err = hashingCorpusProblem(spec);
  if (err.isEmpty() && cl.flags.contains("check")) return checkedOnly("a hashing experiment");
  std::unique_ptr<QLockFile> lock;
  if (err.isEmpty()) catchStopSignals();  // before the claim: once the folder's lock exists, a signal is caught
  if (err.isEmpty()) err = claimOutFolder(cl.outDir, &lock);
  if (!err.isEmpty()) return badInput(err);
  return exitCode(runHashingCommand(spec, registry, cl.outDir, interrupted));
}

int runExperiment(const CommandLine& cl, const MethodRegistry& registry, MpiSession* mpi) {
  Experiment experiment;
  QString err = readCommand(cl, &experiment);
  if (!err.isEmpty()) return badInput(err);
  QList<GridCell> cells;
  err = expandExperiment(experiment, registry, &cells);
  if (!err.isEmpty()) return badInput(err);
  Units chosenUnits = Units::Nats;
  if (const QString e = parseUnits(cl.unitsText, &chosenUnits); !e.isEmpty()) return badInput(e);
  setPrintedUnits(chosenUnits);
  const qint64 jobs = plainInteger(cl.jobsText).value_or(0);
  if (jobs < 1 || jobs > 256)
    return badInput(QStringLiteral("jobs: must be an integer in [1, 256], got '%1'").arg(cl.jobsText));
  if (mpi && jobs != 1)
    return badInput(QStringLiteral("jobs: under mpirun each rank runs one cell at a time; start more ranks (-np) "
                                   "instead of --jobs %1")
                        .arg(jobs));
  GridShard shard;
  if (!cl.shardText.isEmpty()) {
    if (const QString e = parseShard(cl.shardText, &shard); !e.isEmpty()) return badInput(e);
    if (!experiment.isGrid())
      return badInput("shard: the experiment is one run, not a grid; run it without --shard");
    const int all = int(cells.size());
    cells = cellsOfShard(cells, shard);
    if (cells.isEmpty()) {  // a job array larger than the grid: its extra tasks have nothing to do
      std::printf("shard %s: no cells (the grid has %d); nothing to run\n", qPrintable(shard.label()), all);
      return 0;
    }
  }
  if (cl.flags.contains("check"))
    return checkedOnly(
        experiment.isGrid()
            ? QStringLiteral("a grid of %1 cells").arg(cells.size())
            : QStringLiteral("one run of %1 on %2").arg(cells.first().spec.method, cells.first().spec.task));
  // Ctrl-C, SIGTERM, SIGHUP cancel the run; what it measured is still written. Caught from before the claim, so
  // that once the folder's lock exists (what a script or a test can watch for) a signal never kills the process.
  catchStopSignals();
  std::unique_ptr<QLockFile> lock;
  err = shard.isSet() ? claimShardOfOutFolder(cl.outDir, shard.index, shard.count, &lock)
                      : claimOutFolder(cl.outDir, &lock);
  if (!err.isEmpty()) return badInput(err);
  const QString outDir = cl.outDir;
  const QString historyPath = cl.dbPath.isEmpty() ? defaultHistoryPath() : cl.dbPath;

#ifdef MILAB_HAVE_MPI
  if (mpi && experiment.isGrid())
    return exitCode(runGridOverMpi(*mpi, cells, outDir, registry, historyPath, shard, interrupted));
  if (mpi) mpi->releaseWorkers();  // one run: rank 0 runs it, as without mpirun
#endif
  if (experiment.isGrid())
    return exitCode(runGrid(cells, outDir, jobs, registry, historyPath, shard, interrupted));
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
  RunResult result = run.result();
  const QVector<CurvePoint> curve = run.curve();

  const QDir dir(outDir);
  QString history;
  const QStringList errors = writeRunFiles(outDir, spec, &result, curve, [&] {
    QStringList plotErrors;
    QCustomPlot plot;
    RunPlot runPlot(&plot);
    runPlot.showRun(spec, result, curve);
    // Not cut short by a signal: the plots are part of the run's record, and summary.json, written after them, is
    // what says the folder is complete. (A grid's closing figure, drawn from the cells' files, is: finishGrid.)
    for (const char* name : {"plot.png", "plot.pdf", "plot.svg"}) plotErrors << exportPlot(&plot, dir.filePath(name));
    if (!result.embedding.isEmpty())  // a learned representation's picture beside its embedding.csv
      plotErrors << exportEmbeddingPng(result.embedding,
                                       QStringLiteral("%1 on %2, seed %3").arg(spec.method, spec.task).arg(spec.seed),
                                       dir.filePath("embedding.png"));
    if (!result.levels.isEmpty())  // the staircase figure and its per-level table
      plotErrors << writeFigureFiles(outDir, {FigureRun{spec, result, curve}}, {spec.method});
    return plotErrors;
  }, [&](const RunResult& recorded, const RecordPlace& place) {
    // The run history, before summary.json is renamed into place. A run whose files could not be written comes
    // here failed (its reason keeps the reading). The files never depend on the history: its failure is a warning.
    history = recordRun(historyPath, spec, recorded, curve, "cli " + QDir(outDir).absolutePath(), nullptr, place);
  });
  for (const QString& e : errors) std::fprintf(stderr, "milab-cli: %s\n", e.toLocal8Bit().constData());
  if (!history.isEmpty()) std::fprintf(stderr, "milab-cli: warning: %s\n", history.toLocal8Bit().constData());

  const Units units = printedUnits();
  const QString unit = unitName(units);
  const auto amount = [units](double nats) { return QString::number(inUnits(nats, units), 'f', 4); };
  // The unit is named once, after the estimate; the truth and the ceiling beside it are in the same.
  const QString ceiling = result.ceilings.isEmpty() ? QStringLiteral("no ceiling")
                                                    : QStringLiteral("%1 = %2").arg(result.ceilings[0].name,
                                                                                    amount(result.ceilings[0].value));
  if (result.status == RunStatus::Failed) {  // a failed run has no estimate: it says why
    std::printf("%s %s: failed: %s (true %s %s %s, %.1f s, %s)\n", spec.method.toUtf8().constData(),
                spec.task.toUtf8().constData(), result.reason.toUtf8().constData(),
                result.targetName.toUtf8().constData(),
                truthInWords(result.trueMi, result.trueMiStderr, amount).toUtf8().constData(),
                unit.toUtf8().constData(), result.seconds, result.device.toUtf8().constData());
    std::fprintf(stderr, "milab-cli: run failed: %s\n", result.reason.toLocal8Bit().constData());
    return interrupted.load() ? exitCode(kInterrupted) : 1;  // a script that sent a signal reads its code
  }
  // A dataset's truth is unknown: its permutation baseline (y shuffled) says what no dependence reads as.
  QString truth = !std::isnan(result.trueMi)
                      ? QStringLiteral("true %1 %2")
                            .arg(result.targetName, truthInWords(result.trueMi, result.trueMiStderr, amount))
                  : std::isnan(result.baseline)
                      ? QStringLiteral("%1 unknown").arg(result.targetName)
                      : QStringLiteral("%1 unknown, y shuffled %2 +- %3")
                            .arg(result.targetName, amount(result.baseline), amount(result.baselineStderr));
  truth += readingsInWords(result.readings, false, units);
  // One reading without a spread (a whole held-out part; KSG under 100 rows) prints no "+- 0.0000" read as certainty.
  const QString error = hasStandardError(result) ? " +- " + amount(result.stderror) : QString();
  // A run stopped before it read anything (KSG cancelled mid-count, a run stopped before its first step) has no
  // estimate: "none", never a 0.0000 that reads as independence.
  const QString estimate = hasEstimate(result) ? amount(result.estimate) + error + " " + unit : QStringLiteral("none");
  // The result line carries the diagnostics' names, so a diverged run never reads as a clean one on stdout alone
  // (their reasons follow on stderr).
  QStringList flagged;
  for (const RunFlag& f : result.flags) flagged << f.name;
  const QString status =
      statusName(result.status) + (flagged.isEmpty() ? QString() : ", flagged " + flagged.join(", "));
  std::printf("%s %s: estimate %s, %s, %s (%s, %.1f s, %s)\n", spec.method.toUtf8().constData(),
              spec.task.toUtf8().constData(), estimate.toUtf8().constData(), truth.toUtf8().constData(),
              ceiling.toUtf8().constData(), status.toUtf8().constData(), result.seconds,
              result.device.toUtf8().constData());
  if (!result.warning.isEmpty())
    std::fprintf(stderr, "milab-cli: warning: %s\n", result.warning.toLocal8Bit().constData());
  for (const RunFlag& f : result.flags)  // the run's diagnostics (engine/run_diagnostics.h)
    std::fprintf(stderr, "milab-cli: flag %s: %s\n", f.name.toUtf8().constData(), f.reason.toLocal8Bit().constData());
  // A signal that came after the last step (during the evaluation's end or the writes) still ends the command as
  // stopped: a script that sent SIGTERM must not read exit 0.
  if (result.status == RunStatus::Cancelled || interrupted.load()) return exitCode(kInterrupted);
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
  // A file size limit (ulimit -f) makes the write fail with EFBIG, reported like a full disk, instead of
  // killing the process before it can say so or record the run.
  std::signal(SIGXFSZ, SIG_IGN);
  QApplication app(argc, argv);
  QApplication::setApplicationName("milab");  // the run history's folder: ~/.local/share/milab
  QApplication::setApplicationVersion(MILAB_VERSION);
  QStringList args = app.arguments().mid(1);
  if (args.isEmpty()) {
    std::fputs(overallUsage().toUtf8().constData(), stderr);
    return kBadInput;
  }
  const QString command = args.takeFirst();
  if (command == "--help" || command == "-h") {
    std::fputs(overallUsage().toUtf8().constData(), stdout);
    return 0;
  }
  if (command == "--version" || command == "version") {
    std::printf("milab-cli %s\n", QCoreApplication::applicationVersion().toUtf8().constData());
    return 0;
  }
  if (command == "help") {
    const QString topic = args.value(0);
    if (!topic.isEmpty() && usageOf(topic).isEmpty())
      return badInput(QStringLiteral("help: no command '%1' (one of %2)").arg(topic, commandNames().join('|')));
    std::fputs((topic.isEmpty() ? overallUsage() : usageOf(topic)).toUtf8().constData(), stdout);
    return 0;
  }
  if (usageOf(command).isEmpty())
    return badInput(QStringLiteral("command: must be one of %1, got '%2'").arg(commandNames().join('|'), command));
  CommandLine cl;
  if (const QString err = parseCommandLine(command, args, &cl); !err.isEmpty()) return badInput(err);
  if (cl.flags.contains("help")) {
    std::fputs(usageOf(command).toUtf8().constData(), stdout);
    return 0;
  }
  if (command == "history") return runHistoryCommand(cl);
  if (command == "show") return runShowCommand(cl);
  if (command == "sample") {  // tasks only: no method plugin is loaded
    initTorchRuntime();
    if (const QString problem = pluginInstallProblem(nullptr); !problem.isEmpty()) return badInput(problem);
    return runSampleCommand(cl);
  }
  initTorchRuntime();
  MethodRegistry registry;
  registry.loadDefault();
  // A missing plugins folder or a plugin that does not load is bad input: one line naming it, before anything runs.
  if (const QString problem = pluginInstallProblem(&registry); !problem.isEmpty()) return badInput(problem);
  if (command == "hashing") return runHashingCommandLine(cl, registry);
  if (command == "methods") return listMethods(registry, cl.flags.contains("long"));
  if (command == "tasks") return listTasks(cl.flags.contains("long"));
  if (command == "run") {
    if (mpiWorldSizeFromEnvironment() < 2) return runExperiment(cl, registry, nullptr);
#ifdef MILAB_HAVE_MPI
    MpiSession mpi;  // every return below ends it: rank 0 releases the workers that still wait
    if (mpi.rank() != 0) {
      catchStopSignals();
      return exitCode(runMpiWorker(registry, interrupted));  // only rank 0 reads the grid and writes DIR
    }
    return runExperiment(cl, registry, &mpi);
#else
    if (mpiRankFromEnvironment() != 0) return kBadInput;  // rank 0 says why, once
    return badInput(QStringLiteral("mpi: this milab-cli was built without MPI, and mpirun started %1 copies that "
                                   "would each run the whole grid; install libopenmpi-dev and rebuild (.ci/setup)")
                        .arg(mpiWorldSizeFromEnvironment()));
#endif
  }
  return runPriorOrderCommand(cl, registry);
}

}  // namespace milab
