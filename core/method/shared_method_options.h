#pragma once
// The keys the lab reads of any method's settings, whatever its family: critic (oracle: nothing to train), the
// contrastive set size K, the batch and a Markov code's length (bits). Read by key in one place
// (shared_method_options.cpp). Torch-free.
#include <QString>
#include <QtGlobal>
#include <optional>

#include "params/param_spec.h"

namespace milab {

struct SharedMethodOptions {
  std::optional<QString> critic;  // learned, oracle, or a family's own choices (dime's); absent: no critic to swap
  std::optional<qint64> K;        // the contrastive set size, where the family declares one
  std::optional<qint64> batch;    // joint samples per step, where the family declares it
  std::optional<int> bits;        // a Markov encoder's code length m
  // critic = oracle: the run reads the task's exact critic or densities.
  bool oracleCritic() const { return critic == QStringLiteral("oracle"); }
  static SharedMethodOptions from(const ParamMap& params);
};

// critic = oracle: the run reads the task's exact critic or densities and has nothing to learn. Estimators build no
// model for it, and the training session takes each of its steps as one more evaluation: trainStep is never called.
bool usesOracleCritic(const ParamMap& params);

}  // namespace milab
