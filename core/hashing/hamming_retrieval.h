#pragma once
// Retrieval by Hamming distance, the AMMI paper's hashing metric: for each query, the `k` database codes
// nearest in Hamming distance (ties broken by database order, so the result is deterministic), and the share of
// them whose label equals the query's. Codes of any length, packed into 64-bit words (AMMI's Table 1 reaches 128).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace milab {

// Each code as `words` consecutive 64-bit words, code after code: bit i of a code is bit i % 64 of its word i / 64.
struct PackedCodes {
  int64_t words = 1;
  std::vector<uint64_t> data;
  int64_t size() const { return static_cast<int64_t>(data.size()) / words; }
  std::vector<uint64_t> code(int64_t i) const { return {data.begin() + i * words, data.begin() + (i + 1) * words}; }
};

// bits [N, m] (0/1, any integer or bool type) -> N codes of ceil(m / 64) words each, bit i = z_i.
PackedCodes packCodes(const at::Tensor& bits);

// How many distinct codes there are.
int64_t distinctCodes(const PackedCodes& codes);

// Mean over queries of (hits among the k nearest) / k. Labels [N] int64. All of Fashion-MNIST takes seconds:
// `cancelled` (may be empty; called from the worker threads) is polled every 16 queries, and when it turns true
// the remaining queries are skipped and EstimatorCancelled is thrown.
double topKPrecision(const PackedCodes& queries, const at::Tensor& queryLabels, const PackedCodes& database,
                     const at::Tensor& databaseLabels, int k, const std::function<bool()>& cancelled = {});

}  // namespace milab
