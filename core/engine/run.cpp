#include "engine/run.h"

#include <ATen/ATen.h>

#include <QElapsedTimer>
#include <QJsonObject>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

#include "engine/device.h"
#include "engine/final_reading_check.h"
#include "engine/held_out_reading.h"
#include "engine/held_out_tracker.h"
#include "engine/reading_params_options.h"
#include "engine/reference_cache.h"
#include "engine/sample_set.h"
#include "engine/training_session.h"
#include "method/estimator.h"
#include "method/representation_probe.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

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
QList<Ceiling> reportedCeilings(const MethodPlugin& method, const RunSpec& spec) {
  const ParamMap params = readingParams(method.info(), spec);
  QList<Ceiling> ceilings = method.ceilings(params);
  if (params != spec.methodParams)
    for (Ceiling& c : ceilings) c.name.replace("K", "N_test");
  return ceilings;
}

}  // namespace

Run::Run(RunSpec spec, const MethodPlugin* method)
    : spec_(std::move(spec)),
      method_(method),
      model_(buildTask(spec_.task, spec_.taskParams, static_cast<std::uint64_t>(spec_.seed))),
      schedule_(scheduleOf(spec_.taskParams)) {
  if (!model_) throw std::invalid_argument("Run: task '" + spec_.task.toStdString() + "' is unknown (validate first)");
  result_.ceilings = reportedCeilings(*method_, spec_);
  result_.upperBound = method_->info().upperBound;
  const Target target = method_->info().target;
  const NamedValue t = targetOf(*model_, target);
  result_.targetName = t.name;
  result_.trueMi = t.value;
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

QVector<CurvePoint> Run::takeNewPoints() {
  std::lock_guard<std::mutex> lock(mutex_);
  QVector<CurvePoint> out(curve_.begin() + drained_, curve_.end());
  drained_ = curve_.size();
  return out;
}

QVector<CurvePoint> Run::takeNewHeldOut() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(heldOutNew_, {});
}

QVector<CurvePoint> Run::curve() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return curve_;
}

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
  auto finish = [&](RunStatus status, const QString& reason) {
    // Torn down first: whoever waits for the end (the window closing, a queue's join) never waits through it.
    session.reset();
    res.status = status;
    res.reason = reason;
    res.seconds = clock.nsecsElapsed() * 1e-9;
    res.stepsDone = stepsDone_.load();
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
  };
  // A learned representation's probe (method/representation_probe.h): the untrained floor, then every
  // probe_every steps; a stopped run keeps its last reading as its accuracy.
  RepresentationProbe* probe = nullptr;
  double lastProbe = std::numeric_limits<double>::quiet_NaN();
  const auto keepProbe = [&](const char* name, double value) {
    if (!std::isfinite(value)) return;
    for (NamedValue& r : res.readings)
      if (r.name == name) return void(r.value = value);
    res.readings << NamedValue{name, value};
  };
  // Keep what was measured: a cancelled run's estimate is the mean of its last (up to) 100 training points.
  auto finishCancelled = [&](const QString& reason) {
    keepProbe("probe_accuracy", lastProbe);
    const QVector<CurvePoint> pts = curve();
    std::vector<double> tail;
    for (int i = std::max<int>(0, pts.size() - 100); i < pts.size(); ++i) tail.push_back(pts[i].estimate);
    if (!tail.empty()) meanAndStderr(tail, &res.estimate, &res.stderror);
    finish(RunStatus::Cancelled, reason);
  };

  try {
    QString deviceName;
    const QString deviceError = resolveDevice(method_->info().cpuOnly ? "cpu" : spec_.device, &deviceName);
    if (!deviceError.isEmpty()) return finish(RunStatus::Failed, deviceError);
    res.device = deviceName;
    const c10::Device device(deviceName == "cuda" ? c10::kCUDA : c10::kCPU);

    {
      std::lock_guard<std::mutex> lock(mutex_);
      result_.device = res.device;
    }

    session = std::make_unique<TrainingSession>(spec_, *method_, schedule_.isSet() ? *levelModels_.front() : *model_,
                                                device, [this] { return cancel_.load(); });
    const int steps = method_->info().trains ? spec_.steps : 0;  // KSG: no training, only its evaluation
    const SampleSet* sampleSet = session->sampleSet();
    // The finite-sample protocol's held-out reading: every eval_every steps, of the critic those steps left, on the
    // curve beside the training reading; with early stopping, training ends after two in a row below the best.
    HeldOutTracker heldOutTrack(method_->info().upperBound, spec_.earlyStopping);
    // A reading taken after step `step` (held-out, of the critic it left; a probe, of the encoder) on that step's
    // point, once: a step read twice, at an early stop and at the end, is the same network.
    const auto attachLate = [&](int step, double CurvePoint::*field, double value) {
      if (!std::isfinite(value)) return;
      std::lock_guard<std::mutex> lock(mutex_);
      for (int i = curve_.size() - 1; i >= 0 && curve_[i].step >= step; --i)
        if (curve_[i].step == step && std::isnan(curve_[i].*field)) {
          curve_[i].*field = value;
          heldOutNew_ << curve_[i];
        }
    };
    const auto attachHeldOut = [&](int step, double value) { attachLate(step, &CurvePoint::heldOut, value); };
    const auto attachProbe = [&](int step, double value) {
      lastProbe = value;
      attachLate(step, &CurvePoint::probe, value);
    };
    probe = dynamic_cast<RepresentationProbe*>(&session->estimator());
    if (probe) keepProbe("probe_accuracy_untrained", probe->probeAccuracy());
    const int probeEvery = probe ? probe->probeEvery() : 0;
    const TrainingOutcome training = session->train(
        steps,
        [&](int step) {  // the staircase swaps the task's law at each level; the estimator keeps its networks
          if (schedule_.isSet() && step > 1 && schedule_.levelOf(step) != schedule_.levelOf(step - 1))
            session->switchTask(*levelModels_[schedule_.levelOf(step)]);
          if (probeEvery > 0 && step > 1 && (step - 1) % probeEvery == 0) attachProbe(step - 1, probe->probeAccuracy());
          if (!sampleSet || step == 1 || (step - 1) % spec_.evalEvery != 0) return true;
          const HeldOutReading heldOut = heldOutReading(*session, *sampleSet, spec_.heldOutWhole, cancel_);
          attachHeldOut(step - 1, heldOut.value);
          return heldOutTrack.observe(step - 1, heldOut.value, heldOut.stderror);
        },
        [&, trainingStart = clock.nsecsElapsed() * 1e-9](const StepNumbers& n) {
          {
            std::lock_guard<std::mutex> lock(mutex_);
            curve_.push_back({n.step, n.estimate, n.loss, trainingStart + n.seconds});
            curve_.back().terms = n.terms;
          }
          stepsDone_.store(n.step);
        },
        sampleSet ? spec_.evalEvery : probeEvery);  // a late reading needs its step's point published
    if (!training.error.isEmpty()) return finish(RunStatus::Failed, training.error);
    if (training.cancelled || cancel_.load())
      return finishCancelled(QStringLiteral("cancelled at step %1").arg(stepsDone_.load()));
    if (probe) {
      attachProbe(stepsDone_.load(), probe->probeAccuracy());
      keepProbe("probe_accuracy", lastProbe);
      res.embedding = probe->embeddingMap();
      // The supervised ceiling depends on the setting and the seed, not on the objective: once per setting.
      if (probe->wantsSupervisedReference()) {
        QJsonObject setting = QJsonObject::fromVariantMap(runSpecToFlat(spec_));
        setting.remove("method");
        setting.insert("device_used", res.device);
        const std::optional<double> ceiling = cachedOrComputed(
            "supervised-reference", setting, [&] { return probe->supervisedAccuracy(spec_.steps, spec_.seed); });
        if (ceiling) keepProbe("probe_accuracy_supervised", *ceiling);
      }
    }

    std::vector<double> values;
    QList<NamedValue> termSums;
    if (sampleSet) {
      // Final estimate: the trained critic on the held-out part (an estimator that trains nothing reads all N).
      evaluationsBegun_.store(1);
      const bool trains = method_->info().trains;
      const HeldOutReading r = finalReading(*session, trains, spec_.heldOutWhole, cancel_);
      if (cancel_.load()) return finishCancelled("cancelled during evaluation");
      if (!std::isfinite(r.value)) return finish(RunStatus::Failed, "evaluation produced a non-finite value");
      if (trains) attachHeldOut(stepsDone_.load(), r.value);  // the last point carries it too
      const HeldOutReading reported =
          trains ? reportedReading(&heldOutTrack, stepsDone_.load(), r, spec_.reportBest) : r;
      res.estimate = reported.value;
      res.stderror = reported.stderror;
      termSums = reported.terms;
      if (trains && spec_.reportBest && termSums.size() == 1)
        termSums.front().value = res.estimate;  // a one-term bound: the term is the value
      res.reason = heldOutReason(heldOutTrack, spec_.reportBest);
      // A table has no truth: the same method on it with y's rows permuted says what "no dependence" reads as.
      if (const TaskInfo* task = findTask(spec_.task); task && task->dataset) {
        session.reset();  // one estimator's memory at a time
        TrainingSession twin(spec_, *method_, *model_, device, [this] { return cancel_.load(); }, true);
        // Read as the estimate is: with report = best, the best of the twin's own held-out readings (the maximum
        // leans upward on no dependence too, and the baseline shows by how much).
        HeldOutTracker twinTrack(method_->info().upperBound, false);
        const auto readTwin = [&](int step) {
          if (step > 1 && (step - 1) % spec_.evalEvery == 0) {
            const HeldOutReading h = heldOutReading(twin, *twin.sampleSet(), spec_.heldOutWhole, cancel_);
            twinTrack.observe(step - 1, h.value, h.stderror);
          }
          return true;
        };
        const int twinSteps = stepsDone_.load() > 0 ? stepsDone_.load() : steps;
        const std::function<bool(int)> everyReading =
            spec_.reportBest && trains ? std::function<bool(int)>(readTwin) : std::function<bool(int)>();
        const TrainingOutcome t = twin.train(twinSteps, everyReading, {});
        HeldOutReading b = t.error.isEmpty() && !t.cancelled ? finalReading(twin, trains, spec_.heldOutWhole, cancel_)
                                                             : HeldOutReading{};
        if (spec_.reportBest && trains && std::isfinite(b.value)) b = reportedReading(&twinTrack, twinSteps, b, true);
        if (cancel_.load()) {
          res.fromEvaluation = true;
          res.terms = termSums;
          return finish(RunStatus::Cancelled, "cancelled during the permutation baseline (the estimate is kept)");
        }
        if (t.error.isEmpty() && std::isfinite(b.value)) {
          res.baseline = b.value;
          res.baselineStderr = b.stderror;
        }
      }
    }
    // Final estimate: the bound with the trained critic on fresh samples.
    for (int i = 0; !sampleSet && i < spec_.evalBatches; ++i) {
      if (cancel_.load()) return finishCancelled("cancelled during evaluation");
      evaluationsBegun_.store(i + 1);
      const Evaluation e = session->evaluate();
      if (!std::isfinite(e.value)) return finish(RunStatus::Failed, "evaluation produced a non-finite value");
      values.push_back(e.value);
      for (int t = 0; t < e.terms.size(); ++t) {
        if (termSums.size() <= t) termSums << NamedValue{e.terms[t].name, 0.0};
        termSums[t].value += e.terms[t].value / spec_.evalBatches;
      }
    }
    if (!sampleSet) meanAndStderr(values, &res.estimate, &res.stderror);
    res.fromEvaluation = true;
    res.terms = termSums;
    res.warning = method_->warning(spec_.methodParams, termSums);
    // Finite garbage (-6377 from InfoNCE at lr 1) is not a result: the run fails with the number and why.
    const QString implausible =
        implausibleFinalReading(*method_, spec_, schedule_.isSet() ? *levelModels_.back() : *model_,
                                sampleSet != nullptr, curve(), schedule_, levelModels_, &res);
    if (!implausible.isEmpty()) return finish(RunStatus::Failed, implausible);
    finish(RunStatus::Finished, res.reason);
  } catch (const EstimatorCancelled&) {
    finishCancelled(stepsDone_.load() < spec_.steps && method_->info().trains
                        ? QStringLiteral("cancelled at step %1").arg(stepsDone_.load())
                        : QStringLiteral("cancelled during evaluation"));
  } catch (const std::exception& e) {
    finish(RunStatus::Failed, errorLine(e));
  }
}

RunResult runToCompletion(Run& run) {
  run.start();
  run.wait();
  return run.result();
}

}  // namespace milab
