#pragma once
// InfoBridge's settings: their ParamSpecs and the typed options read from a validated ParamMap in one place
// (infoBridgeOptions: the only reader of the family's ParamMap by key).
#include <QString>

#include "params/param_spec.h"

namespace milab {

struct InfoBridgeOptions {
  int64_t batch = 128;
  double lr = 1e-3;
  double eps = 0.1;
  int64_t hidden = 128;
  int64_t layers = 3;
  double ema = 0.99;
  int64_t draws = 10;
  double tMin = 1e-6, tMax = 1 - 1e-6;
  enum class Start { automatic, x, origin } start = Start::automatic;
  bool oracle = false;

  // Whether the bridges start at x (else at the origin) for x of dimX columns and y of dimY.
  bool startsAtX(int64_t dimX, int64_t dimY) const;
};

ParamSpecs infoBridgeParamSpecs();
InfoBridgeOptions infoBridgeOptions(const ParamMap& params);
// "" or why these settings cannot run on a task whose x has dimX columns and y dimY: an empty time range, or bridges
// from x to y of another width.
QString infoBridgeRefusal(const InfoBridgeOptions& o, int dimX, int dimY);
// "" or why critic = oracle cannot run on this task: its exact drifts are gaussian2's (not cubic).
QString infoBridgeOracleRefusal(const InfoBridgeOptions& o, const QString& taskId, const ParamMap& taskParams);

}  // namespace milab
