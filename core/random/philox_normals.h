#pragma once
// Standard normal draws for the lab's large batches of noise (DEMI's and CNCE's conditional negatives: 80,640
// floats a step at K = 128), from a counter-based generator: Philox4x32-10 (Salmon, Moraes, Dror, Shaw 2011,
// "Parallel random numbers: as easy as 1, 2, 3"; the generator of cuRAND and of LibTorch's CUDA draws) keyed by
// 64 bits taken from the run's generator, then Box-Muller.
//
// Why not at::randn: on a CPU it draws each 32-bit uniform through a call into mt19937 and transforms them with
// scalar log/cos/sin, ~3.4 ns a normal here, a quarter of DEMI's step. Philox's counters are independent, so the
// uniforms and the transform vectorise (glibc's libmvec for log/cos/sin): ~1.1 ns a normal with AVX-512.
//
// Reproducible: the same generator state gives the same draws, on any thread count; the last bits of a normal
// may differ between instruction sets (libmvec's SSE, AVX2 and AVX-512 variants, like OpenBLAS's kernels).
// Torch header: include it only from torch translation units.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <cstdint>

namespace milab {

// Normals of `shape` (float) on the generator's device: Philox and Box-Muller for a CPU generator, at::randn
// (already a counter-based generator there) for any other. Takes one 64-bit key from `gen` per call.
at::Tensor philoxNormals(at::IntArrayRef shape, at::Generator& gen);

// The draws behind it, for tests: n normals from Philox4x32-10 keyed by `key`. Call i of the block function
// (counter (i mod 2^32, i div 2^32, 0, 0)) gives four 32-bit words; per chunk of 1,024 calls, words 0 and 1 make
// out[4096 c + j] = r cos(t) and out[4096 c + 1024 + j] = r sin(t) with r = sqrt(-2 log u0), t = 2 pi u1, and
// words 2 and 3 the next 2,048 the same way. u0 = (w0 + 1/2) 2^-32 (so radii reach ~6.7), u1 = w1 2^-32.
void fillPhiloxNormals(float* out, int64_t n, uint64_t key);

// One Philox4x32-10 block (the reference the vectorised loop is tested against).
void philoxBlock(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4]);

}  // namespace milab
