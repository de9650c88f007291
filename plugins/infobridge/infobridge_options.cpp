// InfoBridge's keys (infobridge_options.h). The reference (SKholkin/infobridge, infobridge.py and its high-dimensional
// notebook) trains a residual MLP with a time embedding at AdamW lr 3e-4, batch 128, eps 0.01, a moving average of
// 0.999, and reads t in [1e-6, 1 - 1e-6]. Here the drift is the diffusion estimators' plain SiLU MLP (128 units, 3
// layers), Adam at 1e-3 and a moving average of 0.99: the lab's measured choice for mmg, whose 0.999 outlasted early
// stopping's patience (docs/benchmark.md, "What made mmg read"). eps 0.1, not 0.01: the reading divides the drifts'
// squared gap by 2 eps, so at 0.01 a network's small errors in either drift read as nats (gaussian2 d 5, MI 2:
// 3.3 after 4,000 steps), and at 1 the gap is small against them and reads low (docs/methods.md, "InfoBridge").
#include "infobridge_options.h"

#include <algorithm>

namespace milab {

namespace {

const QStringList kStartNames{"auto", "x", "origin"};  // in InfoBridgeOptions::Start's order

}  // namespace

bool InfoBridgeOptions::startsAtX(int64_t dimX, int64_t dimY) const {
  if (start == Start::automatic) return dimX == dimY;
  return start == Start::x;
}

ParamSpecs infoBridgeParamSpecs() {
  const InfoBridgeOptions d;
  return {
      ParamSpec::integer("batch", int(d.batch), 2, 65536, "joint samples per training step and per evaluation batch"),
      ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate", true, false),
      ParamSpec::real("eps", d.eps, 0.0, 100.0,
                      "the bridges' noise: x_t has variance eps t (1 - t) about its line (the authors take 0.01)",
                      true),
      ParamSpec::integer("hidden", int(d.hidden), 1, 4096, "units of each hidden SiLU layer of the drift"),
      ParamSpec::integer("layers", int(d.layers), 1, 16, "hidden layers of the drift"),
      ParamSpec::real("ema", d.ema, 0.0, 1.0,
                      "decay of the moving average of the weights the readings use (0: the trained weights)", false,
                      true),
      ParamSpec::integer("draws", int(d.draws), 1, 1000, "bridge times drawn per held-out row in a reading"),
      ParamSpec::real("t_min", d.tMin, 0.0, 1.0, "earliest bridge time drawn", false, true),
      ParamSpec::real("t_max", d.tMax, 0.0, 1.0,
                      "latest bridge time drawn (below 1: the drift's target divides by 1 - t)", true, true),
      ParamSpec::choice("start", kStartNames, kStartNames[int(d.start)],
                        "where the bridges to y start: x (the reference's; x and y of one width), the origin, or auto "
                        "(x where the widths agree)"),
      ParamSpec::choice("critic", {"learned", "oracle"}, d.oracle ? "oracle" : "learned",
                        "oracle: no network; gaussian2's exact drifts, read over the same bridges"),
  };
}

InfoBridgeOptions infoBridgeOptions(const ParamMap& params) {
  InfoBridgeOptions o;
  o.batch = params.value("batch").toInt();
  o.lr = params.value("lr").toDouble();
  o.eps = params.value("eps").toDouble();
  o.hidden = params.value("hidden").toInt();
  o.layers = params.value("layers").toInt();
  o.ema = params.value("ema").toDouble();
  o.draws = params.value("draws").toInt();
  o.tMin = params.value("t_min").toDouble();
  o.tMax = params.value("t_max").toDouble();
  o.start = InfoBridgeOptions::Start(std::max<int>(0, kStartNames.indexOf(params.value("start").toString())));
  o.oracle = params.value("critic").toString() == "oracle";
  return o;
}

QString infoBridgeRefusal(const InfoBridgeOptions& o, int dimX, int dimY) {
  if (o.tMax <= o.tMin)
    return QStringLiteral("t_max: must be above t_min (%1), got %2: the bridge time range is empty")
        .arg(o.tMin)
        .arg(o.tMax);
  if (o.start == InfoBridgeOptions::Start::x && dimX != dimY)
    return QStringLiteral("start: x needs x and y of one width (x has %1 columns, y %2); use origin or auto")
        .arg(dimX)
        .arg(dimY);
  return {};
}

QString infoBridgeOracleRefusal(const InfoBridgeOptions& o, const QString& taskId, const ParamMap& taskParams) {
  const bool cubic = taskParams.value("cubic").toBool();
  if (!o.oracle || (taskId == "gaussian2" && !cubic)) return {};
  return QStringLiteral(
             "critic: InfoBridge's oracle drifts are gaussian2's (y = a x + noise per coordinate), and task %1%2 is "
             "not that; use critic learned")
      .arg(taskId, cubic ? " with cubic true" : "");
}

}  // namespace milab
