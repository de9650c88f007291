#pragma once
// The attributes that clone a hand-written loop for newer x86-64 instruction sets beside the baseline (GCC's
// target_clones, the version picked when the library loads: like OpenBLAS's kernels, the last digits then depend on
// the CPU's instruction set, nothing else). Used by plugins/demi/candidate_nce (AVX2 and FMA: a shorter DEMI step,
// docs/speed.md, "Speed") and random/philox (AVX-512: Philox's 32x32->64 multiplies in 16 lanes). Torch-free.
#if defined(__x86_64__) && defined(__GNUC__)
#define MILAB_CLONED_FOR_AVX2 __attribute__((target_clones("arch=x86-64-v3", "default")))
#define MILAB_CLONED_FOR_AVX512 __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define MILAB_CLONED_FOR_AVX2
#define MILAB_CLONED_FOR_AVX512
#endif
