#include "engine/reading_stream.h"

#include <ATen/CPUGeneratorImpl.h>

#include <mutex>

#include "random/seed_streams.h"

namespace milab {

namespace {

// g's state seeded `seed`, for a generator of g's kind and device (a clone, so g itself is untouched).
at::Tensor seededState(const at::Generator& g, std::uint64_t seed) {
  at::Generator other = g.clone();
  other.set_current_seed(seed);
  return other.get_state();
}

void exchangeState(at::Generator& g, at::Tensor* held) {
  std::lock_guard<std::mutex> lock(g.mutex());
  at::Tensor now = g.get_state();
  g.set_state(*held);
  *held = std::move(now);
}

}  // namespace

ReadingStream::ReadingStream(at::Generator cpu, at::Generator noise, int seed) : cpu_(std::move(cpu)) {
  cpuState_ = seededState(cpu_, readingSeed(seed));
  if (noise.defined() && noise != cpu_) {
    noise_ = std::move(noise);
    noiseState_ = seededState(noise_, readingSeed(seed));
  }
}

void ReadingStream::exchange() {
  exchangeState(cpu_, &cpuState_);
  if (noise_.defined()) exchangeState(noise_, &noiseState_);
}

}  // namespace milab
