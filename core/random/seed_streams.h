#pragma once
// Where a run's seed becomes a generator's: each consumer draws from a stream of its own, so that adding draws to one
// (a longer training, another code length) moves no other's numbers. Written once here: a stream's map written twice
// can drift apart (the CUDA noise generator and the CPU one must agree to the bit). Torch-free.
#include <cstdint>

namespace milab {

// The estimator's stream `stream` of run seed `seed`: the training generators (stream 17, engine/training_session)
// and the hashing experiment's per-code-length generators (stream m, the code length).
constexpr std::uint64_t estimatorSeed(int seed, std::uint64_t stream = 17) {
  return static_cast<std::uint64_t>(seed) * 7919u + stream;
}

// The finite sample set's data (engine/sample_set): apart from every estimator stream and from the task's
// construction, so the rows depend on the task, N and the seed only.
constexpr std::uint64_t sampleSetSeed(int seed) { return static_cast<std::uint64_t>(seed) * 104729u + 7u; }

// A reading's own stream (engine/reading_stream): the permutations, negatives and noise of held-out readings, apart
// from the training generators so that how often a run reads moves nothing it trains on.
constexpr std::uint64_t readingSeed(int seed) { return static_cast<std::uint64_t>(seed) * 1299709u + 11u; }

// The test of independence's permutations of y (engine/independence_test).
constexpr std::uint64_t permutationTestSeed(int seed) { return static_cast<std::uint64_t>(seed) * 15485863u + 5u; }

// The subsampled spread's order of the rows (engine/subsample_spread).
constexpr std::uint64_t subsampleSeed(int seed) { return static_cast<std::uint64_t>(seed) * 32452843u + 9u; }

// The order in which a finite set's rows are dealt into disjoint parts (engine/sample_set's RowPart).
constexpr std::uint64_t rowPartSeed(int seed) { return static_cast<std::uint64_t>(seed) * 49979687u + 13u; }

// A retrained part's networks (engine/size_extrapolation): part `index` of `of`, apart from the whole run's stream 17.
constexpr std::uint64_t rowPartNetworkStream(int of, int index) {
  return 1000u + static_cast<std::uint64_t>(of) * 100u + static_cast<std::uint64_t>(index);
}

}  // namespace milab
