// A reading's generator from its rows (reading_draws.h).
#include "nn/reading_draws.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cstdint>
#include <cstring>

#include "method/estimator.h"

namespace milab {

namespace {

uint64_t splitMix(uint64_t h) {  // SplitMix64's finaliser: every input bit moves every output bit
  h += 0x9E3779B97F4A7C15ull;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}

}  // namespace

at::Generator readingGenerator(const at::Tensor& x, const at::Tensor& y, c10::Device device) {
  const at::Tensor sums =
      at::stack({x.sum(), x.abs().sum(), y.sum(), y.abs().sum()}).to(at::kDouble).to(c10::Device(c10::kCPU));
  uint64_t h = splitMix(uint64_t(x.size(0)));
  for (int64_t i = 0; i < sums.numel(); ++i) {
    const double v = sums.data_ptr<double>()[i];
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    h = splitMix(h ^ bits);
  }
  const int seed = int(h & 0x7fffffffu);
  return deviceNoiseGenerator(device, seed, at::make_generator<at::CPUGeneratorImpl>(seed));
}

}  // namespace milab
