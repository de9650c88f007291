#pragma once
// Retrieval by Hamming distance, the AMMI paper's hashing metric: for each query, the `k` database codes
// nearest in Hamming distance (ties broken by database order, so the result is deterministic), and the share of
// them whose label equals the query's. Codes of up to 64 bits, packed one word per code.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace milab {

// bits [N, m] (0/1, any integer or bool type, m <= 64) -> one word per row, bit i = z_i.
std::vector<uint64_t> packCodes(const at::Tensor& bits);

// Mean over queries of (hits among the k nearest) / k. Labels [N] int64. All of Fashion-MNIST takes seconds:
// `cancelled` (may be empty; called from the worker threads) is polled every 16 queries, and when it turns true
// the remaining queries are skipped and EstimatorCancelled is thrown.
double topKPrecision(const std::vector<uint64_t>& queries, const at::Tensor& queryLabels,
                     const std::vector<uint64_t>& database, const at::Tensor& databaseLabels, int k,
                     const std::function<bool()>& cancelled = {});

}  // namespace milab
