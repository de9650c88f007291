#include "hashing/hamming_retrieval.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "method/estimator.h"

namespace milab {

std::vector<uint64_t> packCodes(const at::Tensor& bits) {
  const int64_t n = bits.size(0), m = bits.size(1);
  if (m > 64) throw std::invalid_argument("packCodes: at most 64 bits per code");
  const at::Tensor b = bits.to(at::kCPU, at::kLong).contiguous();
  const int64_t* p = b.data_ptr<int64_t>();
  std::vector<uint64_t> words(n, 0);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < m; ++i)
      if (p[r * m + i]) words[r] |= uint64_t{1} << i;
  return words;
}

double topKPrecision(const std::vector<uint64_t>& queries, const at::Tensor& queryLabels,
                     const std::vector<uint64_t>& database, const at::Tensor& databaseLabels, int k,
                     const std::function<bool()>& cancelled) {
  const int64_t nq = static_cast<int64_t>(queries.size()), nd = static_cast<int64_t>(database.size());
  const int64_t kk = std::min<int64_t>(k, nd);
  if (nq == 0 || kk == 0) return 0.0;
  const at::Tensor ql = queryLabels.to(at::kCPU, at::kLong).contiguous(),
                   dl = databaseLabels.to(at::kCPU, at::kLong).contiguous();
  const int64_t *qlp = ql.data_ptr<int64_t>(), *dlp = dl.data_ptr<int64_t>();
  std::vector<double> perQuery(nq, 0.0);
  std::atomic<bool> stopped{false};
  at::parallel_for(0, nq, 16, [&](int64_t begin, int64_t end) {
    // Key (distance << 32 | index): ordering by key is ordering by distance, then database order.
    std::vector<uint64_t> keys(nd);
    for (int64_t q = begin; q < end; ++q) {
      // Polled, not thrown from here: an exception must not cross parallel_for's worker threads.
      if ((q - begin) % 16 == 0 && cancelled && !stopped.load() && cancelled()) stopped.store(true);
      if (stopped.load()) return;
      for (int64_t d = 0; d < nd; ++d)
        keys[d] =
            (static_cast<uint64_t>(__builtin_popcountll(queries[q] ^ database[d])) << 32) | static_cast<uint64_t>(d);
      std::nth_element(keys.begin(), keys.begin() + (kk - 1), keys.end());
      int64_t hits = 0;
      for (int64_t j = 0; j < kk; ++j) hits += dlp[keys[j] & 0xffffffffu] == qlp[q];
      perQuery[q] = static_cast<double>(hits) / kk;
    }
  });
  if (stopped.load()) throw EstimatorCancelled();
  double sum = 0;
  for (double v : perQuery) sum += v;
  return sum / nq;
}

}  // namespace milab
