#pragma once
// Philox4x32-10 (Salmon, Moraes, Dror, Shaw 2011, "Parallel random numbers: as easy as 1, 2, 3"; the generator of
// cuRAND and of LibTorch's CUDA draws) and standard normals from it by Box-Muller, vectorised: the arithmetic
// behind random/philox_normals, in a translation unit of its own because it is compiled with -ffast-math (what
// makes glibc declare the vector log/cos/sin of libmvec) and must share no inline code with the rest of the
// library. Torch-free.
//
// Why our own Philox and not Random123's (Debian's librandom123-dev, which test_philox_normals checks it
// against): its counters live in array structs that GCC does not vectorise; here the four words of 1,024
// counters sit in separate arrays, and the rounds run 16 lanes at a time with AVX-512.
#include <cstdint>

namespace milab {

// n normals from Philox4x32-10 keyed by `key`. Call i of the block function (counter (i mod 2^32, i div 2^32, 0,
// 0)) gives four 32-bit words; per chunk of 1,024 calls, words 0 and 1 make out[4096 c + j] = r cos(t) and
// out[4096 c + 1024 + j] = r sin(t) with r = sqrt(-2 log u0), t = 2 pi u1, and words 2 and 3 the next 2,048 the
// same way. u0 = (w0 + 1/2) 2^-32 (so radii reach ~6.7), u1 = w1 2^-32, both rounded to float.
void fillPhiloxNormals(float* out, int64_t n, uint64_t key);

// One Philox4x32-10 block (the reference the vectorised loop is tested against).
void philoxBlock(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4]);

}  // namespace milab
