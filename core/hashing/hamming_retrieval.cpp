#include "hashing/hamming_retrieval.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <stdexcept>

#include "method/estimator.h"

namespace milab {

PackedCodes packCodes(const at::Tensor& bits) {
  const int64_t n = bits.size(0), m = bits.size(1);
  const at::Tensor b = bits.to(at::kCPU, at::kLong).contiguous();
  const int64_t* p = b.data_ptr<int64_t>();
  PackedCodes out;
  out.words = std::max<int64_t>(1, (m + 63) / 64);
  out.data.assign(n * out.words, 0);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < m; ++i)
      if (p[r * m + i]) out.data[r * out.words + i / 64] |= uint64_t{1} << (i % 64);
  return out;
}

int64_t distinctCodes(const PackedCodes& codes) {
  std::set<std::vector<uint64_t>> seen;
  for (int64_t i = 0; i < codes.size(); ++i) seen.insert(codes.code(i));
  return static_cast<int64_t>(seen.size());
}

double topKPrecision(const PackedCodes& queries, const at::Tensor& queryLabels, const PackedCodes& database,
                     const at::Tensor& databaseLabels, int k, const std::function<bool()>& cancelled) {
  if (queries.words != database.words) throw std::invalid_argument("topKPrecision: codes of different lengths");
  const int64_t nq = queries.size(), nd = database.size(), words = queries.words;
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
      const uint64_t* query = queries.data.data() + q * words;
      for (int64_t d = 0; d < nd; ++d) {
        const uint64_t* code = database.data.data() + d * words;
        uint64_t distance = 0;
        for (int64_t w = 0; w < words; ++w) distance += static_cast<uint64_t>(__builtin_popcountll(query[w] ^ code[w]));
        keys[d] = (distance << 32) | static_cast<uint64_t>(d);
      }
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
