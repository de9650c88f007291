#include "nn/derangement.h"

#include <stdexcept>

namespace milab {

at::Tensor randomDerangement(int64_t n, at::Generator& gen, const at::TensorOptions& options) {
  if (n < 2) throw std::invalid_argument("a derangement needs at least 2 rows");
  const at::Tensor perm = at::randperm(n, gen, options.dtype(at::kLong));
  // partner[perm[k]] = perm[k + 1 mod n]: one cycle through every row, so no row is its own partner.
  return at::empty_like(perm).index_copy_(0, perm, perm.roll(-1));
}

}  // namespace milab
