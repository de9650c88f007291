// Distinct rows for a minibatch: a whole shuffle for small tables, Floyd's algorithm for large ones.
#include "tasks/distinct_rows.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <unordered_set>
#include <utility>

namespace milab {

namespace {

// Floyd's algorithm (Bentley and Floyd, CACM 30(9), 1987): for j = available - n, ..., available - 1 a uniform t in
// [0, j] is taken, or j itself when t already is; the n taken are a uniformly random n-subset. Their order is not
// uniform (j, when taken on a collision, comes after every smaller draw), so a Fisher-Yates shuffle of the n
// follows. One draw of 2n uniforms (53-bit doubles: the bias of scaling to [0, j] is below j / 2^53) feeds both.
at::Tensor floydRows(int64_t available, int64_t n, at::Generator& gen) {
  const at::Tensor uniforms = at::rand({2 * n}, gen, at::TensorOptions().dtype(at::kDouble));
  const double* u = uniforms.data_ptr<double>();
  const auto below = [](double uniform, int64_t count) {
    return std::min(count - 1, int64_t(uniform * double(count)));
  };
  at::Tensor rows = at::empty({n}, at::kLong);
  int64_t* r = rows.data_ptr<int64_t>();
  std::unordered_set<int64_t> taken(size_t(2 * n));
  for (int64_t k = 0; k < n; ++k) {
    const int64_t j = available - n + k;
    const int64_t t = below(u[k], j + 1);
    r[k] = taken.count(t) ? j : t;  // j is never taken before: every earlier draw is below it
    taken.insert(r[k]);
  }
  for (int64_t k = n - 1; k > 0; --k) std::swap(r[k], r[below(u[n + k], k + 1)]);
  return rows;
}

}  // namespace

at::Tensor distinctRows(int64_t available, int64_t n, at::Generator& gen, int64_t wholeShuffleUpTo) {
  if (available <= wholeShuffleUpTo || gen.device().type() != c10::kCPU)
    return at::randperm(available, gen, at::TensorOptions().dtype(at::kLong).device(gen.device())).narrow(0, 0, n);
  return floydRows(available, n, gen);
}

}  // namespace milab
