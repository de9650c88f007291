#include "engine/prior_order_sweep.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <QElapsedTimer>
#include <cmath>
#include <limits>
#include <memory>

#include "engine/device.h"
#include "engine/experiment.h"
#include "engine/run.h"
#include "engine/training_session.h"
#include "markov/enumeration.h"
#include "markov/learned_prior.h"
#include "markov/markov_code.h"
#include "method/markov_encoder.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"
#include "tasks/task_sampler.h"

namespace milab {

QString priorOrderSweepFromExperiment(const Experiment& experiment, const MethodRegistry& registry,
                                      PriorOrderSweepSpec* out) {
  if (experiment.isGrid()) return "grid: the prior-order sweep takes one encoder, not a grid or method rows";
  QVariantMap flat = experiment.base;
  if (!experiment.methods.isEmpty()) flat.insert(experiment.methods.first());
  return priorOrderSweepFromFlat(flat, registry, out);
}

QString priorOrderSweepFromFlat(const QVariantMap& flat, const MethodRegistry& registry, PriorOrderSweepSpec* out) {
  QVariantMap runKeys = flat;
  ParamMap sweep;
  for (const ParamSpec& s : priorOrderSweepSpecs())
    if (runKeys.contains(s.name)) sweep.insert(s.name, runKeys.take(s.name));
  QString err = validateParamMap(priorOrderSweepSpecs(), &sweep, "the prior-order sweep");
  if (!err.isEmpty()) return err;
  // The methods whose estimator has a Markov encoder to read: asked of the registry, never named here.
  QStringList encoders;
  for (const QString& id : registry.ids())
    if (registry.find(id)->info().markovEncoder) encoders << id;
  if (!runKeys.contains("method"))
    return QStringLiteral("method: required for the prior-order sweep, one of %1").arg(encoders.join('|'));
  err = runSpecFromFlat(runKeys, registry, &out->encoder);
  if (!err.isEmpty()) return err;
  const RunSpec& enc = out->encoder;
  if (!encoders.contains(enc.method))
    return QStringLiteral("method: must be one of %1 for the prior-order sweep (a Markov encoder), got '%2'")
        .arg(encoders.join('|'), enc.method);
  const MarkovEncoderKeys code = MarkovEncoderKeys::from(enc.methodParams);
  const PriorOrderSweepOptions options = PriorOrderSweepOptions::from(sweep);
  const int m = code.bits, o = code.orderY;
  const int r = options.maxOrder;
  if (m > markov::kMaxEnumeratedBits)
    return QStringLiteral("bits: must be <= %1 for the prior-order sweep (brute-force entropy), got %2")
        .arg(markov::kMaxEnumeratedBits)
        .arg(m);
  if (r >= m) return QStringLiteral("max_order: must be < bits = %1, got %2").arg(m).arg(r);
  if (r < o) return QStringLiteral("max_order: must be >= order_y = %1, got %2").arg(o).arg(r);
  const qint64 batch = options.fixedBatch, limit = markov::kMaxEnumeratedEntries >> m;
  if (batch > limit)
    return QStringLiteral("fixed_batch: must be <= 2^26 / 2^bits = %1 with bits = %2, got %3")
        .arg(limit)
        .arg(m)
        .arg(batch);
  out->sweep = sweep;
  return {};
}

namespace {

// The frozen encoder's codes (logits) of a fixed batch of `rows` fresh samples from the session's generator.
at::Tensor frozenCodes(TrainingSession& session, MarkovEncoder& encoder, int64_t rows) {
  c10::NoGradGuard noGrad;
  const Batch fixed = session.sampleJoint(int(rows));
  return encoder.encoderLogits(fixed.y);
}

// H(Z) of the codes by brute force over every code word (AMMI's reference).
double exactCodeEntropy(const at::Tensor& codes, const std::function<bool()>& cancelled) {
  c10::NoGradGuard noGrad;
  return markov::aggregateEntropy(codes, cancelled).item<double>();
}

// Order r's point: the closed-form best prior's cross entropy, and with `fit` (null: none) that of a learned prior
// (`bits`, `hidden` as the encoder's) fitted on the same codes with the options' steps and lr.
PriorOrderPoint orderPoint(const at::Tensor& codes, int r, const PriorOrderSweepOptions* fit, int64_t bits,
                           int64_t hidden, at::Generator& generator, c10::Device device,
                           const std::function<bool()>& cancelled) {
  PriorOrderPoint p;
  p.order = r;
  {
    c10::NoGradGuard noGrad;
    p.optimal = markov::crossEntropy(codes, markov::optimalPrior(codes, r)).mean().item<double>();
  }
  p.fitted = std::numeric_limits<double>::quiet_NaN();
  if (fit) {
    markov::LearnedPrior prior(bits, r, hidden, fit->fitLr, generator, device);
    p.fitted = prior.fit(codes, fit->fitSteps, cancelled);
  }
  return p;
}

}  // namespace

PriorOrderSweep runPriorOrderSweep(const PriorOrderSweepSpec& spec, const MethodPlugin& method,
                                   const std::function<void(const PriorOrderPoint&)>& onPoint,
                                   const std::atomic<bool>& cancel,
                                   const std::function<void(PriorOrderPhase, int order)>& onPhase) {
  const auto begin = [&onPhase](PriorOrderPhase phase, int order) {
    if (onPhase) onPhase(phase, order);
  };
  PriorOrderSweep out;
  const RunSpec& enc = spec.encoder;
  const MarkovEncoderKeys code = MarkovEncoderKeys::from(enc.methodParams);
  const PriorOrderSweepOptions options = PriorOrderSweepOptions::from(spec.sweep);
  const int64_t m = code.bits, o = code.orderY;
  out.uniform = m * std::log(2.0);
  try {
    QString deviceName;
    out.error = resolveDevice(enc.device, &deviceName);
    if (!out.error.isEmpty()) return out;
    out.device = deviceName;
    const c10::Device device(deviceName == "cuda" ? c10::kCUDA : c10::kCPU);
    const std::unique_ptr<TaskModel> model =
        buildTask(enc.task, enc.taskParams, static_cast<std::uint64_t>(enc.seed));
    const std::function<bool()> cancelled = [&cancel] { return cancel.load(); };
    // The encoder a `run` of the same spec would train: same session, same generator.
    TrainingSession session(enc, method, *model, device, cancelled);
    auto* markovEstimator = dynamic_cast<MarkovEncoder*>(&session.estimator());
    if (!markovEstimator) {
      out.error = QStringLiteral("method %1 has no Markov encoder").arg(enc.method);
      return out;
    }

    // "Partly trained": the encoder run's own steps, then frozen.
    QElapsedTimer clock;
    clock.start();
    begin(PriorOrderPhase::TrainingEncoder, -1);
    const TrainingOutcome trained = session.train(enc.steps, {}, {});
    out.cancelled = trained.cancelled;
    if (!trained.error.isEmpty()) out.error = "encoder " + trained.error;
    if (trained.cancelled || !out.error.isEmpty()) return out;
    out.encoderSeconds = clock.nsecsElapsed() * 1e-9;

    begin(PriorOrderPhase::BruteForceEntropy, -1);
    const at::Tensor codes = frozenCodes(session, *markovEstimator, options.fixedBatch);
    out.bruteForceEntropy = exactCodeEntropy(codes, cancelled);
    const int maxOrder = options.maxOrder, fitSteps = options.fitSteps;
    const int64_t hidden = code.hidden;
    for (int r = static_cast<int>(o); r <= maxOrder; ++r) {
      if (cancel.load()) {
        out.cancelled = true;
        return out;
      }
      clock.restart();
      begin(PriorOrderPhase::FittingOrder, r);
      PriorOrderPoint p =
          orderPoint(codes, r, fitSteps > 0 ? &options : nullptr, m, hidden, session.generator(), device, cancelled);
      p.seconds = clock.nsecsElapsed() * 1e-9;
      out.points << p;
      if (onPoint) onPoint(p);
    }
  } catch (const EstimatorCancelled&) {
    out.cancelled = true;  // inside the entropy or an order's fit: the orders before it are kept
  } catch (const std::exception& e) {
    out.error = errorLine(e);
  }
  return out;
}

}  // namespace milab
