#pragma once
// The four objectives of the DEMI paper's Table 1 as pure functions of the critic's score matrices (as the
// Gaussian bounds in core/nn/bounds.h): in-batch, row i a view of image i, column j image j's view y, the joint
// pairs on the diagonal. Listing 1: the BO terms add the BO head's logits to the *detached* logits of the other
// view's unconditional term, so that I_BO trains only the BO head's side of the encoder's output.
#include <ATen/core/Tensor.h>

#include <vector>

#include "vision_options.h"

namespace milab {

struct VisionScores {
  at::Tensor x, xp;      // NCE head: s(x_i, y_j), s(x'_i, y_j), [B, B]
  at::Tensor boX, boXp;  // the conditional (BO / IS) head's, for DemiBo and DemiIs only
};

// Each term's value (nats, one element each) in visionTermNames(objective) order; the objective is their sum.
// Each is at most log B.
std::vector<at::Tensor> visionTerms(VisionObjective objective, const VisionScores& scores);

}  // namespace milab
