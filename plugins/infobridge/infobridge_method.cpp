#include "infobridge_method.h"

#include "infobridge_estimator.h"
#include "infobridge_options.h"
#include "tasks/task_catalog.h"

namespace milab {

MethodInfo InfoBridgePlugin::info() const {
  MethodInfo i;
  i.id = "infobridge";
  i.displayName = "InfoBridge (Brownian-bridge drifts)";
  i.family = "diffusion";
  i.summary =
      "one network learns the drifts of Brownian bridges from x to y ~ p(y|x) and to y ~ p(y); reads (1/2 eps) times "
      "the integral over bridge time of the squared gap between the two drifts (their KL divergence, I(x;y)), on "
      "held-out rows. Neither bound";
  i.params = infoBridgeParamSpecs();
  i.lowerBound = false;
  i.selectsByHeldOutLoss = true;  // its bridge-matching loss on held-out rows
  // Mismatched pairs read higher, not lower: the joint drift fed another row's y leaves the independent one further
  // (gaussian2 d 5, MI 2, 5,000 rows: 3.8 nats on permuted ys, 1.9 on the pairs), so the test must be two-sided.
  i.testsBothSides = true;
  return i;
}

QString InfoBridgePlugin::validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
  const InfoBridgeOptions o = infoBridgeOptions(params);
  const TaskWidths w = criticInputWidths(task, taskParams);
  if (const QString refusal = infoBridgeRefusal(o, w.x, w.y); !refusal.isEmpty()) return refusal;
  return infoBridgeOracleRefusal(o, task.id, taskParams);
}

// Each step runs the drift twice over the batch (the joint bridges and the independent ones) and a reading batch
// `draws` times over: about 16 bytes per row and hidden unit (activations, their gradients, SiLU's inputs, in float),
// over a 0.25 GB base. An estimate from the shapes, not fitted to a measurement.
MemoryNeed InfoBridgePlugin::memoryNeed(const ParamMap& params, const TaskInfo& task,
                                        const ParamMap& taskParams) const {
  const InfoBridgeOptions o = infoBridgeOptions(params);
  const TaskWidths w = taskWidths(task, taskParams);
  const double rows = 2.0 * double(o.batch) * double(std::max<int64_t>(o.draws, 1));
  const double units = double(o.hidden) * double(o.layers) + 4.0 * double(w.x + w.y);
  return {2.5e8 + 16.0 * rows * units, "batch",
          QStringLiteral("the drift's activations over batch %1 x draws %2 x hidden %3 x layers %4")
              .arg(o.batch)
              .arg(o.draws)
              .arg(o.hidden)
              .arg(o.layers),
          "lower batch, draws or hidden"};
}

std::unique_ptr<Estimator> InfoBridgePlugin::create(const EstimatorContext& context) const {
  return std::make_unique<InfoBridgeEstimator>(context);
}

}  // namespace milab
