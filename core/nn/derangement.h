#pragma once
// A random derangement of a batch's rows: partner[i] != i for every i, and for each i its partner is uniform over
// the other n - 1 rows. Pairing x_i with y_partner[i] draws from the product of marginals with no joint pair mixed
// in; a plain random permutation leaves each row with itself with probability 1/n, which pulls an estimator's
// marginal term 1/n of the way toward its joint term (club-sample read (1 - 1/n) times its gap). Drawn on the
// generator's device with no host read: a uniformly random n-cycle (row perm[k] is paired with row perm[k + 1]),
// which is one of the derangements, not all of them, and has the property above.
#include <ATen/ATen.h>

namespace milab {

// n >= 2. The returned index lives where `options` says (dtype kLong).
at::Tensor randomDerangement(int64_t n, at::Generator& gen, const at::TensorOptions& options);

}  // namespace milab
