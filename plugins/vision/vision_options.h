#pragma once
// The vision family's options (infonce-vision, infomin-multi, demi-vision, demi-vision-is), read from a validated
// ParamMap in one place (visionOptions).
#include <QString>

#include "params/param_spec.h"

namespace milab {

// The four objectives of the DEMI paper's Table 1 (sec. 5.2, Listing 1, footnote 4).
enum class VisionObjective {
  Nce,       // I_NCE(x;y): InfoMin's x <-> y
  NceMulti,  // I_NCE(x;y) + I_NCE(x';y): InfoMin (multi), x' as one more view
  DemiBo,    // I_NCE(x';y) + I_BO(x;y|x') + I_NCE(x;y) + I_BO(x';y|x): both chain-rule decompositions
  DemiIs,    // the same with I_IS for the conditional terms
};

struct VisionOptions {
  VisionObjective objective = VisionObjective::Nce;
  int64_t batch = 256;       // images per step; each row's negatives are the batch's other y's
  double lr = 1e-3;          // Adam
  int64_t channels = 16;     // the encoder's first block; the next two have 2x and 4x (its representation: 4x)
  int64_t embed = 64;        // output of each projection head
  double temperature = 0.2;  // critic: cosine similarity of the heads' outputs / temperature (InfoMin's 0.2)
  int probeEvery = 200;      // steps between linear probes on the curve (0: before and after training only)
  int64_t probeTrain = 10000, probeTest = 10000;  // images the probe fits on and is scored on
  bool supervised = false;  // also train the encoder with labels once per setting: the probe's ceiling
  // MoCo's negatives (as InfoMin trains): with queue > 0 the y side is a momentum copy of the encoder and its head
  // (no gradient; each step key = momentum * key + (1 - momentum) * online), and every row's candidates are the
  // batch's keys plus the last `queue` keys of earlier batches. 0: in-batch negatives only.
  int64_t queue = 0;
  double momentum = 0.99;
};

ParamSpecs visionParamSpecs();
VisionOptions visionOptions(VisionObjective objective, const ParamMap& params);
// The terms the objective sums, in the order the curve and the summary list them.
QStringList visionTermNames(VisionObjective objective);

}  // namespace milab
