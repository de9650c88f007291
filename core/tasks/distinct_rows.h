#pragma once
// Minibatches of distinct rows: n indices of [0, available) drawn without replacement and in uniformly random order
// (every ordered n-tuple of distinct indices equally likely: bmi's minibatches), with the caller's generator.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <cstdint>

namespace milab {

// Up to this many rows a draw is the first n of a whole shuffle (at::randperm), as it always was: there it costs a
// small part of the joint critic's step (bench_row_draws, 256 rows a draw: docs/speed.md, "Minibatches of a table")
// and a stored run's seed still reads the rows it read (every finite-sample table in docs/ trains on at most 5,000
// rows). Above it the shuffle grows with the table, past a whole step at a million rows, and Floyd's algorithm
// draws the n in O(n), as fast up to four million.
constexpr int64_t kWholeShuffleUpTo = 10000;

// A kLong tensor of n distinct indices on the generator's device (Floyd's draw runs on CPU generators only; a device
// generator shuffles on its device).
at::Tensor distinctRows(int64_t available, int64_t n, at::Generator& gen, int64_t wholeShuffleUpTo = kWholeShuffleUpTo);

}  // namespace milab
