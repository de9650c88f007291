#include "vision_options.h"

namespace milab {

ParamSpecs visionParamSpecs() {
  const VisionOptions d;
  return {
      ParamSpec::integer("batch", int(d.batch), 2, 4096,
                         "images per training step; each view's negatives are the batch's other y's"),
      ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate", true, false),
      ParamSpec::integer("channels", int(d.channels), 1, 256,
                         "channels of the encoder's first conv block (then 2x and 4x; the representation has 4x)"),
      ParamSpec::integer("embed", int(d.embed), 1, 1024, "output size of each projection head"),
      ParamSpec::real("temperature", d.temperature, 0.0, 10.0,
                      "the critic: cosine similarity of the heads' outputs divided by this", true, false),
      ParamSpec::integer("probe_every", d.probeEvery, 0, 1000000,
                         "steps between linear probes on the curve (0: only before and after training)"),
      ParamSpec::integer("probe_train", int(d.probeTrain), 10, 60000,
                         "training images (un-augmented, the first this many) the linear probe is fitted on"),
      ParamSpec::integer("probe_test", int(d.probeTest), 10, 10000,
                         "test images (the first this many) the linear probe is scored on"),
      ParamSpec::boolean("supervised", d.supervised,
                         "also read the ceiling: the same encoder trained as long with the labels (a classifier on "
                         "one view), probed the same way; once per setting and seed, then cached"),
      ParamSpec::integer("queue", int(d.queue), 0, 60000,
                         "MoCo: negatives kept from earlier batches, encoded by a momentum copy of the encoder (0: "
                         "in-batch negatives only); at most the task's train_images"),
      ParamSpec::real("momentum", d.momentum, 0.0, 1.0,
                      "MoCo: the key encoder's update, key = momentum * key + (1 - momentum) * online (with queue > 0)",
                      false, true),
  };
}

VisionOptions visionOptions(VisionObjective objective, const ParamMap& p) {
  VisionOptions o;
  o.objective = objective;
  o.batch = p.value("batch").toLongLong();
  o.lr = p.value("lr").toDouble();
  o.channels = p.value("channels").toLongLong();
  o.embed = p.value("embed").toLongLong();
  o.temperature = p.value("temperature").toDouble();
  o.probeEvery = p.value("probe_every").toInt();
  o.probeTrain = p.value("probe_train").toLongLong();
  o.probeTest = p.value("probe_test").toLongLong();
  o.supervised = p.value("supervised").toBool();
  o.queue = p.value("queue").toLongLong();
  o.momentum = p.value("momentum").toDouble();
  return o;
}

QStringList visionTermNames(VisionObjective objective) {
  switch (objective) {
    case VisionObjective::Nce:
      return {"I_NCE(x;y)"};
    case VisionObjective::NceMulti:
      return {"I_NCE(x;y)", "I_NCE(x';y)"};
    case VisionObjective::DemiBo:
      return {"I_NCE(x';y)", "I_BO(x;y|x')", "I_NCE(x;y)", "I_BO(x';y|x)"};
    case VisionObjective::DemiIs:
      return {"I_NCE(x';y)", "I_IS(x;y|x')", "I_NCE(x;y)", "I_IS(x';y|x)"};
  }
  return {};
}

}  // namespace milab
