#include "mine/mine_options.h"

namespace milab {

ParamSpecs MineOptions::extraSpecs() {
  return {
      ParamSpec::real("momentum", MineOptions{}.momentum, 0.0, 1.0, "moving-average weight of the past", false, true)};
}

MineOptions MineOptions::from(const ParamMap& params) {
  MineOptions o;
  o.critic = CriticOptions::from(params);
  o.momentum = params.value("momentum").toDouble();
  return o;
}

}  // namespace milab
