#include "vision_plugin.h"

#include <cmath>

#include "tasks/shared_task_options.h"
#include "vision_estimator.h"

namespace milab {

// The encoder's activations and their gradients over the step's views of 28 x 28 images: about 64 KB per (image,
// first-block channel) over 0.9 GB (Fashion-MNIST and the probe's features), fitted to the peak resident memory of
// three demi-vision steps (three views) at batch x channels = 256 x 16 (1.12 GB), 64 x 64 (1.04 GB) and 256 x 64
// (1.82 GB) (docs/user-guide.md, "Memory is checked"); an objective of two views needs less.
MemoryNeed VisionPlugin::memoryNeed(const ParamMap& params, const TaskInfo&, const ParamMap&) const {
  const VisionOptions o = visionOptions(objective_, params);
  return {9e8 + 6.4e4 * double(o.batch) * double(o.channels), "batch",
          QStringLiteral("the encoder's activations over batch %1 x channels %2 images").arg(o.batch).arg(o.channels),
          "lower batch or channels"};
}

MethodInfo VisionPlugin::info() const {
  MethodInfo i;
  i.family = "vision";
  i.params = visionParamSpecs();
  i.readsImages = true;
  i.needsSubview = false;  // x' is a view of the image task, not a law with a known p(y|x')
  switch (objective_) {
    case VisionObjective::Nce:
      i.id = "infonce-vision";
      i.displayName = "InfoNCE on views (InfoMin's x <-> y)";
      i.summary = "a CNN encoder trained by I_NCE(x;y) between two augmented views, in-batch negatives";
      break;
    case VisionObjective::NceMulti:
      i.id = "infomin-multi";
      i.displayName = "InfoMin (multi): I_NCE(x;y) + I_NCE(x';y)";
      i.summary = "a CNN encoder trained by I_NCE(x;y) + I_NCE(x';y): the subview x' as one more view";
      break;
    case VisionObjective::DemiBo:
      i.id = "demi-vision";
      i.displayName = "DEMI on views (I_BO, Listing 1)";
      i.summary =
          "a CNN encoder trained by I_NCE(x';y) + I_BO(x;y|x') + I_NCE(x;y) + I_BO(x';y|x), the BO heads on the "
          "detached unconditional logits (DEMI's Listing 1)";
      break;
    case VisionObjective::DemiIs:
      i.id = "demi-vision-is";
      i.displayName = "DEMI on views (I_IS)";
      i.summary = "DEMI's four vision terms with I_IS for the conditional ones (the paper's footnote 4)";
      break;
  }
  return i;
}

QList<Ceiling> VisionPlugin::ceilings(const ParamMap& params) const {
  const VisionOptions o = visionOptions(objective_, params);
  const int terms = visionTermNames(objective_).size();
  const double logC = std::log(double(o.batch + o.queue));  // each row's candidates: the batch's keys, the queue's
  const QString log = o.queue > 0 ? QStringLiteral("log(B+queue)") : QStringLiteral("log B");
  return {{terms == 1 ? log : QStringLiteral("%1 %2").arg(terms).arg(log), terms * logC}};
}

QString VisionPlugin::validate(const ParamMap& params, const TaskInfo&, const ParamMap& taskParams) const {
  const VisionOptions o = visionOptions(objective_, params);
  const std::optional<qint64> pool = SharedTaskOptions::from(taskParams).trainImages;
  const qint64 images = pool.value_or(0);
  if (pool && o.queue > images)
    return QStringLiteral(
               "queue: %1 keys is more than the task's train_images (%2): the queue would hold the same "
               "images again as negatives; allowed 0 to %2")
        .arg(o.queue)
        .arg(images);
  return {};
}

std::unique_ptr<Estimator> VisionPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<VisionEstimator>(context, objective_);
}

}  // namespace milab
