#pragma once
// Standard normal draws for the lab's large batches of noise (DEMI's and CNCE's conditional negatives: 80,640
// floats a step at K = 128) from a counter-based generator, Philox4x32-10 keyed by 64 bits taken from the run's
// generator, then Box-Muller (random/philox.h).
//
// Why not at::randn: on a CPU it draws each 32-bit uniform through a call into mt19937 and transforms them with
// scalar log/cos/sin, a large share of DEMI's step. Philox's counters are independent, so the uniforms and the
// transform vectorise (glibc's libmvec for log/cos/sin): a fraction of the cost a normal with AVX-512
// (docs/speed.md, "Speed").
//
// Reproducible: the same generator state gives the same draws, on any thread count; the last bits of a normal
// may differ between instruction sets (libmvec's SSE, AVX2 and AVX-512 variants, like OpenBLAS's kernels).
// Torch header: include it only from torch translation units.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include "random/philox.h"

namespace milab {

// Normals of `shape` (float) on the generator's device: Philox and Box-Muller for a CPU generator, at::randn
// (already a counter-based generator there) for any other. Takes one 64-bit key from `gen` per call.
at::Tensor philoxNormals(at::IntArrayRef shape, at::Generator& gen);

}  // namespace milab
