#pragma once
// A run's final reading when it trains on fresh batches (no finite set): the trained critic's bound on eval_batches
// batches of fresh samples, their mean, its standard error and the terms' means. Torch-free.
#include <atomic>

#include "engine/held_out_reading.h"

namespace milab {

class TrainingSession;

enum class ReadingEnd { Read, Cancelled, NonFinite };

// Reads `batches` batches into `reading`, counting each begun in `begun` (Run::evaluationsBegun); stops at a cancel
// (polled before each batch) or at a batch whose value is not finite.
ReadingEnd readFreshBatches(TrainingSession& session, int batches, const std::atomic<bool>& cancel,
                            std::atomic<int>* begun, HeldOutReading* reading);

}  // namespace milab
