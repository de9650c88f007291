#include "engine/run.h"

#include <ATen/ATen.h>

#include <QElapsedTimer>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

#include "engine/allocation_failure.h"
#include "engine/device.h"
#include "engine/final_reading_check.h"
#include "engine/fresh_batch_reading.h"
#include "engine/held_out_evaluation.h"
#include "engine/independence_test.h"
#include "engine/learned_readings_at_end.h"
#include "engine/permutation_baseline.h"
#include "engine/probe_schedule.h"
#include "engine/reading_interval.h"
#include "engine/reading_params_options.h"
#include "engine/run_diagnostics.h"
#include "engine/run_observer.h"
#include "engine/sample_set.h"
#include "engine/size_extrapolation.h"
#include "engine/staircase_switch.h"
#include "engine/training_session.h"
#include "method/estimator.h"
#include "method/representation_probe.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

constexpr char kNoConditionalTest[] =
    "no test of independence: a permutation of y would test I(x;y) = 0, not I(x;y|x') = 0 (it breaks y's tie to x' "
    "too)";

QString joinedNotes(const QString& first, const QString& second) {
  return first.isEmpty() ? second : second.isEmpty() ? first : first + "; " + second;
}

// A finite set with heavy-tailed columns, read by a method whose defaults were not measured to read such tables.
QString heavyTailCaveat(const SampleSet& set, const MethodInfo& info) {
  if (info.readsHeavyTails || set.heavyTails().isEmpty()) return {};
  return QStringLiteral(
             "heavy tails in %1 (excess kurtosis above 10): the methods not marked \"reads heavy-tailed tables\" in "
             "`milab-cli methods --long` read the Beyond-Normal suite's Student-t table of 3 degrees of freedom at "
             "11-55% of the truth where measured (docs/benchmark.md, \"Heavy tails at the lab's defaults\")")
      .arg(set.heavyTails());
}

// The exact value of what a method estimates on a task, and its name.
NamedValue targetOf(const TaskModel& model, Target target) {
  switch (target) {
    case Target::TotalMi:
      return {model.hasSubview() ? "I(x,x';y)" : "I(x;y)", model.totalMi()};
    case Target::ConditionalMi:  // validateRunSpec guarantees a subview (needsSubview)
      return {"I(x;y|x')", model.conditionalMi()};
    case Target::LogNormaliser:
      return {"log Z", 0.0};
  }
  return {};
}

// The ceilings of what the run reports: with held_out = whole, those of K = N_test (readingParams), named so.
QList<Ceiling> reportedCeilings(const MethodPlugin& method, const RunSpec& spec, const TaskModel& task) {
  const ParamMap params = readingParams(method.info(), spec);
  QList<Ceiling> ceilings = method.ceilingsOn(params, task);
  if (params != spec.methodParams)
    for (Ceiling& c : ceilings) c.name.replace("K", "N_test");
  return ceilings;
}

// A size extrapolation's readings: the value at infinite N with its interval, the sizes' agreement with the line,
// and a trained critic's retrained spread (training included), whose larger with the critic-fixed error becomes the
// reading's standard error and sets its interval; a part that failed leaves a warning instead.
void addExtrapolationReadings(const SizeExtrapolation& x, double level, RunResult* res) {
  if (!x.error.isEmpty()) {
    res->warning = joinedNotes(res->warning, "extrapolate: " + x.error);
    return;
  }
  const ReadingInterval at = readingInterval(x.fit.value, x.fit.stderror, x.degreesOfFreedom, level);
  res->readings << NamedValue{"extrapolated", x.fit.value} << NamedValue{"extrapolated_se", x.fit.stderror}
                << NamedValue{"extrapolated_low", at.low} << NamedValue{"extrapolated_high", at.high};
  if (std::isfinite(x.fit.consistencyP)) res->readings << NamedValue{"size_consistency_p", x.fit.consistencyP};
  if (!std::isfinite(x.readingStderror)) return;
  if (std::isfinite(x.partsStderror)) res->readings << NamedValue{"retrained_se", x.partsStderror};
  res->stderror = x.readingStderror;
  const ReadingInterval whole = readingInterval(res->estimate, x.readingStderror, x.degreesOfFreedom, level);
  QList<NamedValue> kept;
  for (const NamedValue& v : res->readings)
    if (!v.name.startsWith("ci_")) kept << v;
  res->readings = QList<NamedValue>{{"ci_level", level}, {"ci_low", whole.low}, {"ci_high", whole.high}} + kept;
}

}  // namespace

Run::Run(RunSpec spec, const MethodPlugin* method)
    : spec_(std::move(spec)),
      method_(method),
      model_(buildTask(spec_.task, spec_.taskParams, static_cast<std::uint64_t>(spec_.seed))),
      schedule_(scheduleOf(spec_.taskParams)) {
  if (!model_) throw std::invalid_argument("Run: task '" + spec_.task.toStdString() + "' is unknown (validate first)");
  result_.ceilings = reportedCeilings(*method_, spec_, *model_);
  result_.upperBound = method_->info().upperBound;
  const Target target = method_->info().target;
  const NamedValue t = targetOf(*model_, target);
  result_.targetName = t.name;
  result_.trueMi = t.value;
  result_.trueMiStderr = target == Target::TotalMi ? model_->totalMiStandardError() : 0.0;
  result_.truths = model_->truths();
  // A staircase: the same task (same seed: same split over dimensions, same alphas) at each level's MI.
  QList<double> targets;
  for (double level : schedule_.levels) {
    ParamMap params = spec_.taskParams;
    params.insert("mi", level);
    levelModels_.push_back(buildTask(spec_.task, params, static_cast<std::uint64_t>(spec_.seed)));
    targets << targetOf(*levelModels_.back(), target).value;
  }
  if (schedule_.isSet()) {
    result_.levels = levelStatistics({}, schedule_, targets);
    result_.stepsPerLevel = schedule_.stepsPerLevel;
  }
}

Run::~Run() {
  cancel();
  if (thread_.joinable()) thread_.join();
}

bool Run::start() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (result_.status != RunStatus::Pending) return false;  // a second start would replace a joinable thread
    result_.status = RunStatus::Running;
  }
  thread_ = std::thread([this] { execute(); });
  return true;
}

void Run::cancel() { cancel_.store(true); }

bool Run::wait(int timeoutMs) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto done = [this] { return finished_.load(); };
    if (timeoutMs < 0)
      finishedChanged_.wait(lock, done);
    else if (!finishedChanged_.wait_for(lock, std::chrono::milliseconds(timeoutMs), done))
      return false;
  }
  if (thread_.joinable()) thread_.join();
  return true;
}

QVector<CurvePoint> Run::takeNewPoints() { return curve_.takeNewPoints(); }

QVector<CurvePoint> Run::takeNewHeldOut() { return curve_.takeNewLate(); }

QVector<CurvePoint> Run::curve() const { return curve_.points(); }

RunResult Run::result() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return result_;
}

void Run::execute() {
  configureThisThread();
  QElapsedTimer clock;
  clock.start();
  RunResult res = result();  // what is known before training: truths, ceilings
  std::unique_ptr<TrainingSession> session;
  RunObservers observers;
  auto finish = [&](RunStatus status, const QString& reason) {
    // Torn down first: whoever waits for the end (the window closing, a queue's join) never waits through it.
    session.reset();
    res.status = status;
    res.reason = reason;
    res.seconds = clock.nsecsElapsed() * 1e-9;
    res.stepsDone = stepsDone_.load();
    publish(res);
  };
  // Keep what was measured: a cancelled run's estimate is the mean of its last (up to) 100 training points.
  auto finishCancelled = [&](const QString& reason) {
    observers.runCancelled(&res);
    tailMean(curve(), 100, &res.estimate, &res.stderror);
    finish(RunStatus::Cancelled, reason);
  };

  try {
    if (const QString error = chooseDevice(&res); !error.isEmpty()) return finish(RunStatus::Failed, error);
    const c10::Device device(res.device == "cuda" ? c10::kCUDA : c10::kCPU);

    session = std::make_unique<TrainingSession>(spec_, *method_, schedule_.isSet() ? *levelModels_.front() : *model_,
                                                device, [this] { return cancel_.load(); });
    const int steps = method_->info().trains ? spec_.steps : 0;  // KSG: no training, only its evaluation
    HeldOutEvaluation* heldOut = addObservers(*session, &observers);
    observers.trainingStarts(&res);
    const TrainingOutcome training = session->train(
        steps, [&](int step) { return observers.beforeStep(step); },
        [this, trainingStart = clock.nsecsElapsed() * 1e-9](const StepNumbers& n) { recordStep(n, trainingStart); },
        observers.syncEvery());  // a late reading needs its step's point published
    if (!training.error.isEmpty()) return finish(RunStatus::Failed, training.error);
    if (training.cancelled || cancel_.load())
      return finishCancelled(QStringLiteral("cancelled at step %1").arg(stepsDone_.load()));
    observers.trainingEnded(stepsDone_.load(), &res);

    if (const std::optional<RunEnd> end = readEstimate(session, heldOut, device, &res)) {
      if (end->status == RunStatus::Cancelled && !end->estimateKept) return finishCancelled(end->reason);
      return finish(end->status, end->reason);
    }
    res.warning = joinedNotes(method_->warning(spec_.methodParams, res.terms), res.warning);  // readEstimate's caveat
    // Finite garbage (-6377 from InfoNCE at lr 1) is not a result: the run fails with the number and why.
    const QString implausible =
        implausibleFinalReading(*method_, spec_, schedule_.isSet() ? *levelModels_.back() : *model_, heldOut != nullptr,
                                curve(), schedule_, levelModels_, &res);
    if (!implausible.isEmpty()) return finish(RunStatus::Failed, implausible);
    res.stepsDone = stepsDone_.load();
    res.flags = runDiagnostics(spec_, method_->info(), res, curve()) + res.flags;  // and the final check's
    finish(RunStatus::Finished, res.reason);
  } catch (const EstimatorCancelled&) {
    finishCancelled(stepsDone_.load() < spec_.steps && method_->info().trains
                        ? QStringLiteral("cancelled at step %1").arg(stepsDone_.load())
                        : QStringLiteral("cancelled during evaluation"));
  } catch (const std::exception& e) {
    finish(RunStatus::Failed, allocationFailureLine(e, *method_, spec_).value_or(errorLine(e)));
  }
}

QString Run::chooseDevice(RunResult* res) {
  QString name;
  const QString error = resolveDevice(method_->info().cpuOnly ? "cpu" : spec_.device, &name);
  if (!error.isEmpty()) return error;
  res->device = name;
  std::lock_guard<std::mutex> lock(mutex_);
  result_.device = name;  // shown while the run trains
  return {};
}

void Run::recordStep(const StepNumbers& n, double trainingStart) {
  CurvePoint point{n.step, n.estimate, n.loss, trainingStart + n.seconds};
  point.terms = n.terms;
  curve_.append(std::move(point));
  stepsDone_.store(n.step);
}

void Run::publish(RunResult res) {
  if (schedule_.isSet()) {
    QList<double> targets;
    for (const LevelResult& l : res.levels) targets << l.target;
    res.levels = levelStatistics(curve(), schedule_, targets);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    result_ = res;
  }
  if (onFinished_) onFinished_(*this);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_.store(true);
  }
  finishedChanged_.notify_all();
}

std::optional<Run::RunEnd> Run::readEstimate(std::unique_ptr<TrainingSession>& session, HeldOutEvaluation* heldOut,
                                             const c10::Device& device, RunResult* res) {
  QList<NamedValue> terms;
  std::optional<RunEnd> end;
  if (heldOut) {
    end = readFiniteSet(session, *heldOut, device, res, &terms);
  } else {
    // The bound with the trained critic on fresh samples.
    HeldOutReading fresh;
    const ReadingEnd read = readFreshBatches(*session, spec_.evalBatches, cancel_, &evaluationsBegun_, &fresh);
    if (read == ReadingEnd::Cancelled) return RunEnd{RunStatus::Cancelled, "cancelled during evaluation"};
    if (read == ReadingEnd::NonFinite) return RunEnd{RunStatus::Failed, "evaluation produced a non-finite value"};
    res->estimate = fresh.value;
    res->stderror = fresh.stderror;
    terms = fresh.terms;
  }
  if (end && !end->estimateKept) return end;
  res->fromEvaluation = true;
  res->terms = terms;
  return end;
}

std::optional<Run::RunEnd> Run::readFiniteSet(std::unique_ptr<TrainingSession>& session, HeldOutEvaluation& heldOut,
                                              const c10::Device& device, RunResult* res, QList<NamedValue>* terms) {
  // The trained critic on the held-out part (an estimator that trains nothing reads all N).
  evaluationsBegun_.store(1);
  const MethodInfo info = method_->info();
  const bool trains = info.trains;
  const HeldOutReading r = finalReading(*session, trains, spec_.heldOutWhole, spec_.seed, cancel_);
  if (cancel_.load()) return RunEnd{RunStatus::Cancelled, "cancelled during evaluation"};
  if (!std::isfinite(r.value)) return RunEnd{RunStatus::Failed, "evaluation produced a non-finite value"};
  heldOut.report(stepsDone_.load(), trains, spec_.reportBest, r, res, terms);
  // The interval over the data; with report = best, about the best reading, with the final network's spread.
  const ReadingInterval interval = readingInterval(res->estimate, r.stderror, r.degreesOfFreedom, spec_.ci);
  if (std::isfinite(interval.low))
    res->readings << NamedValue{"ci_level", spec_.ci} << NamedValue{"ci_low", interval.low}
                  << NamedValue{"ci_high", interval.high};
  if (info.target == Target::ConditionalMi) {
    // A permutation of y breaks its tie to x' as well as to x: its test, and a y-shuffled baseline, would be of
    // I(x;y) = 0, not of I(x;y|x') = 0 (a conditional test permutes y among rows of like x', not offered here).
    res->reason = joinedNotes(res->reason, kNoConditionalTest);
  } else {
    evaluationsBegun_.store(2);  // the test of independence: the estimate stands whatever happens to it
    const IndependenceTest test = permutationTest(*session, trains, spec_.heldOutWhole, info.testsBothSides, r.value,
                                                  spec_.permutations, spec_.seed, cancel_);
    if (cancel_.load())
      return RunEnd{RunStatus::Cancelled, "cancelled during the test of independence (the estimate is kept)", true};
    res->readings << NamedValue{"p_value", test.pValue} << NamedValue{"permutations_read", double(test.permutations)}
                  << NamedValue{"permuted_mean", test.permutedMean} << NamedValue{"permuted_sd", test.permutedSd};
  }
  res->reason = joinedNotes(res->reason, session->sampleSet()->transformNote());
  res->warning = joinedNotes(res->warning, heavyTailCaveat(*session->sampleSet(), info));
  return readBesideTheEstimate(session, r, device, res);
}

std::optional<Run::RunEnd> Run::readBesideTheEstimate(std::unique_ptr<TrainingSession>& session,
                                                      const HeldOutReading& final, const c10::Device& device,
                                                      RunResult* res) {
  const bool trains = method_->info().trains;
  const bool conditional = method_->info().target == Target::ConditionalMi;  // no y-shuffled baseline: see above
  if (const TaskInfo* task = findTask(spec_.task); task && task->dataset && !conditional) {
    session.reset();  // one estimator's memory at a time
    const int twinSteps = stepsDone_.load() > 0 ? stepsDone_.load() : (trains ? spec_.steps : 0);
    const BaselineOutcome b = permutationBaseline(spec_, *method_, *model_, device, cancel_, twinSteps);
    if (b.cancelled)
      return RunEnd{RunStatus::Cancelled, "cancelled during the permutation baseline (the estimate is kept)", true};
    if (b.reading) {
      res->baseline = b.reading->value;
      res->baselineStderr = b.reading->stderror;
    }
  }
  if (!spec_.extrapolate) return std::nullopt;
  evaluationsBegun_.store(3);
  if (trains) session.reset();      // the parts train one at a time, each with its own memory
  HeldOutReading reported = final;  // with report = best, the best reading with the final network's error
  reported.value = res->estimate;
  const SizeExtrapolation x =
      trains ? extrapolateByRetraining(spec_, *method_, *model_, device, cancel_, spec_.steps, reported)
             : extrapolateFromParts(final, spec_.samples);
  if (x.cancelled)
    return RunEnd{RunStatus::Cancelled, "cancelled during the size extrapolation (the estimate is kept)", true};
  addExtrapolationReadings(x, spec_.ci, res);
  return std::nullopt;
}

HeldOutEvaluation* Run::addObservers(TrainingSession& session, RunObservers* observers) {
  const auto putOnCurve = [this](double CurvePoint::*field) {
    return [this, field](int step, double value) { curve_.putLateReading(step, field, value); };
  };
  // In the order they see a step: the staircase's law first, then the readings of the network that step starts from.
  if (schedule_.isSet())
    observers->add(std::make_unique<StaircaseSwitch>(
        schedule_, levelModels_, [&session](const TaskModel& level) { session.switchTask(level); }));
  if (auto* probe = dynamic_cast<RepresentationProbe*>(&session.estimator()))
    observers->add(std::make_unique<ProbeSchedule>(*probe, spec_, putOnCurve(&CurvePoint::probe)));
  if (auto* learned = dynamic_cast<LearnedReadings*>(&session.estimator()))
    observers->add(std::make_unique<LearnedReadingsAtEnd>(*learned));
  const SampleSet* set = session.sampleSet();
  if (!set) return nullptr;
  return observers->add(std::make_unique<HeldOutEvaluation>(
      spec_.evalEvery, heldOutSelection(method_->info()), spec_.earlyStopping,
      [this, &session, set] { return heldOutReading(session, *set, spec_.heldOutWhole, cancel_); },
      putOnCurve(&CurvePoint::heldOut)));
}

RunResult runToCompletion(Run& run) {
  run.start();
  run.wait();
  return run.result();
}

}  // namespace milab
