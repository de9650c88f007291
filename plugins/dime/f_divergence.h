#pragma once
// The three f-divergences of f-DIME (dime_objectives.h gives each its objective and reading). On its own so that
// the options and the plugins' Qt classes name a divergence without LibTorch's headers.
namespace milab {

enum class FDivergence { Kl, Gan, Hellinger };

}  // namespace milab
