#include "vision_objectives.h"

#include <ATen/ATen.h>

#include "nn/bounds.h"

namespace milab {

namespace {

// I_BO(a;y|b) of Listing 1: InfoNCE of b's unconditional logits, detached, plus a's conditional ones.
at::Tensor boosted(const at::Tensor& conditional, const at::Tensor& unconditional) {
  return inBatchNce(unconditional.detach() + conditional);
}

// I_IS(a;y|b) (eq. 9): the in-batch negatives reweighted by b's unconditional critic, detached.
at::Tensor importanceSampled(const at::Tensor& conditional, const at::Tensor& unconditional) {
  return importanceSampledNce(positiveFirst(conditional), positiveFirst(unconditional.detach()));
}

}  // namespace

std::vector<at::Tensor> visionTerms(VisionObjective objective, const VisionScores& s) {
  switch (objective) {
    case VisionObjective::Nce:
      return {inBatchNce(s.x)};
    case VisionObjective::NceMulti:
      return {inBatchNce(s.x), inBatchNce(s.xp)};
    case VisionObjective::DemiBo:
      return {inBatchNce(s.xp), boosted(s.boX, s.xp), inBatchNce(s.x), boosted(s.boXp, s.x)};
    case VisionObjective::DemiIs:
      return {inBatchNce(s.xp), importanceSampled(s.boX, s.xp), inBatchNce(s.x), importanceSampled(s.boXp, s.x)};
  }
  return {};
}

}  // namespace milab
