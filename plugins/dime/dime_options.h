#pragma once
// f-DIME's settings: their ParamSpecs and the typed options read from a validated ParamMap in one place
// (dimeOptions: the only reader of the family's ParamMap by key).
#include <cstdint>

#include "f_divergence.h"
#include "params/param_spec.h"

namespace milab {

// The family's options, read from a validated ParamMap in one place (dimeOptions).
struct DimeOptions {
  enum class Critic { Concatenated, Separable, Oracle };
  enum class Negatives { Derangement, Permutation, AllPairs };
  FDivergence divergence = FDivergence::Kl;
  int64_t batch = 128;
  double lr = 2e-3;
  int64_t hidden = 200;
  int64_t embed = 32;
  Critic critic = Critic::Concatenated;
  Negatives negatives = Negatives::Derangement;
};

ParamSpecs dimeParamSpecs();
DimeOptions dimeOptions(FDivergence divergence, const ParamMap& params);

}  // namespace milab
