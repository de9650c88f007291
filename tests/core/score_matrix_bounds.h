#pragma once
// The score-matrix bounds as the plugins train them (plugins/*/..._plugin.cpp), written here from nn/bounds, for the
// tests of the written-out critic steps (test_separable_step, test_joint_step).
#include <ATen/ATen.h>

#include <cmath>

#include <QString>
#include <QStringList>
#include <functional>

#include "nn/bounds.h"

namespace milab {

using Bound = std::function<at::Tensor(const at::Tensor&)>;

inline Bound bound(const QString& name) {
  if (name == "infonce") return inBatchNce;
  if (name == "nwj") return nwjBound;
  if (name == "tuba") return tubaBound;
  if (name == "dv") return dvBound;
  if (name == "mine") return [](const at::Tensor& s) { return mineObjective(s, at::full({}, std::log(1.7), s.options())); };
  if (name == "js") return [](const at::Tensor& s) { return valueOfWithGradientOf(nwjBound(s + 1.0), jsObjective(s)); };
  if (name == "smile")
    return [](const at::Tensor& s) {
      return valueOfWithGradientOf(s.diagonal().mean() - logMeanExpOffDiagonal(s.clamp(-1.0, 1.0)), jsObjective(s));
    };
  return [](const at::Tensor& s) {  // local-nce
    return (at::log_sigmoid(s.diagonal()) + at::log_sigmoid(-s).sum(1) - at::log_sigmoid(-s.diagonal())).mean();
  };
}

inline const QStringList kBounds{"infonce", "nwj", "tuba", "dv", "mine", "js", "smile", "local-nce"};

}  // namespace milab
