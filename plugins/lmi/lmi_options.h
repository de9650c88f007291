#pragma once
// LMI's settings: their ParamSpecs and the typed options read from a validated ParamMap in one place (lmiOptions: the
// only reader of the family's ParamMap by key).
#include <QString>
#include <optional>

#include "params/param_spec.h"

namespace milab {

struct LmiOptions {
  int64_t batch = 512;
  double lr = 1e-4;
  int64_t hidden = 256;
  std::optional<int64_t> latent;  // unset: kDefaultLatent, narrowed to each side's width
  double crossWeight = 1;
  double selfWeight = 1;
  double dropout = 0.5;
  int k = 3;
  int64_t readRows = 2000;

  static constexpr int64_t kDefaultLatent = 8;
  // The latent width of a side with `columns` columns: the key's value (or kDefaultLatent), at most the side's width.
  int64_t latentOf(int64_t columns) const;
};

ParamSpecs lmiParamSpecs();
LmiOptions lmiOptions(const ParamMap& params);
// "" or why `latent` cannot embed x (dimX columns) and y (dimY): above the wider of the two.
QString lmiLatentRefusal(const LmiOptions& o, int dimX, int dimY);

}  // namespace milab
