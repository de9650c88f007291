// The joint critic's per-pair loops (nn/joint_rows.h says why they are written out, and how they are blocked).
// GCC's vector extensions, written and measured against GCC's vectoriser: g++ compiles this file even in the lab's
// Clang build (cmake/gcc_kernels.cmake). It compiles under Clang too (-DMILAB_GCC_KERNELS=OFF, the sanitizer builds):
// splat has a line for each, and every loop on vectors sits in an always-inlined helper, since Clang refuses a 64-byte
// vector passed or returned in a function built without AVX-512 unless the call is inlined away.
#include "nn/joint_rows.h"

#include <algorithm>
#include <cstring>

#include "nn/target_clones.h"

#define MILAB_INLINE inline __attribute__((always_inline))

namespace milab {

namespace {

constexpr int64_t T = kJointPairTile, U = kJointUnitBlock;

// 16 pairs' values of one unit. aligned(4): loads and stores may be unaligned.
typedef float Pairs __attribute__((vector_size(T * sizeof(float)), aligned(4), may_alias));

MILAB_INLINE Pairs load(const float* p) { return *reinterpret_cast<const Pairs*>(p); }
MILAB_INLINE void store(float* p, Pairs v) { *reinterpret_cast<Pairs*>(p) = v; }
typedef int32_t Lanes __attribute__((vector_size(T * sizeof(float))));
// Every lane v: lane 0 shuffled to all (a broadcast; Pairs{} + v would cost an addition per weight, 0 + -0 being +0).
#if defined(__clang__)
MILAB_INLINE Pairs splat(float v) {
  return __builtin_shufflevector(Pairs{v}, Pairs{v}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
#else
MILAB_INLINE Pairs splat(float v) { return __builtin_shuffle(Pairs{v}, Lanes{}); }
#endif
// ReLU that keeps a NaN, as ATen's does (NaN < 0 is false), so a diverged critic's scores read NaN and its run stops.
MILAB_INLINE Pairs relu(Pairs v) { return v < Pairs{} ? Pairs{} : v; }
// Zero where the unit's activation was zero: ATen's threshold_backward for ReLU.
MILAB_INLINE Pairs throughRelu(Pairs grad, Pairs activation) { return activation > Pairs{} ? grad : Pairs{}; }
MILAB_INLINE float lanesSum(Pairs v) {
  float s = 0;
  for (int64_t i = 0; i < T; ++i) s += v[i];
  return s;
}

struct Layout {
  int64_t hidden = 0, widest = 0;  // sum and largest of the hidden widths
};
MILAB_INLINE Layout layout(const JointRowsNet& net) {
  Layout out;
  for (int64_t l = 0; l < net.layers; ++l) {
    out.hidden += net.widths[l];
    out.widest = std::max(out.widest, net.widths[l]);
  }
  return out;
}

// a[h][j] = relu(hx[h] + hyT[h][j])
MILAB_INLINE void firstLayer(const float* hx, const float* hyT, int64_t ld, int64_t width, int64_t pairs, int64_t chunk,
                             float* a) {
  for (int64_t h = 0; h < width; ++h) {
    const Pairs base = splat(hx[h]);
    for (int64_t j = 0; j < pairs; j += T) store(a + h * chunk + j, relu(base + load(hyT + h * ld + j)));
  }
}

// z[k][j] = relu(b[k] + sum_h w[k][h] a[h][j]), eight units' sums in registers over each tile of pairs.
MILAB_INLINE void hiddenLayer(const float* w, const float* b, int64_t out, int64_t in, const float* a, int64_t pairs,
                              int64_t chunk, float* z) {
  for (int64_t j = 0; j < pairs; j += T)
    for (int64_t k0 = 0; k0 < out; k0 += U) {
      Pairs acc[U];
#pragma GCC unroll 8
      for (int64_t r = 0; r < U; ++r) acc[r] = splat(b[k0 + r]);
      for (int64_t h = 0; h < in; ++h) {
        const Pairs ah = load(a + h * chunk + j);
#pragma GCC unroll 8
        for (int64_t r = 0; r < U; ++r) acc[r] += splat(w[(k0 + r) * in + h]) * ah;
      }
#pragma GCC unroll 8
      for (int64_t r = 0; r < U; ++r) store(z + (k0 + r) * chunk + j, relu(acc[r]));
    }
}

// s[j] = b + sum_h w[h] a[h][j], four tiles of pairs at a time.
MILAB_INLINE void outputLayer(const float* w, float b, int64_t in, const float* a, int64_t pairs, int64_t chunk,
                              float* s) {
  int64_t j = 0;
  for (; j + 4 * T <= pairs; j += 4 * T) {
    Pairs acc[4] = {splat(b), splat(b), splat(b), splat(b)};
    for (int64_t h = 0; h < in; ++h) {
      const Pairs wh = splat(w[h]);
#pragma GCC unroll 4
      for (int64_t q = 0; q < 4; ++q) acc[q] += wh * load(a + h * chunk + j + q * T);
    }
#pragma GCC unroll 4
    for (int64_t q = 0; q < 4; ++q) store(s + j + q * T, acc[q]);
  }
  for (; j < pairs; j += T) {
    Pairs acc = splat(b);
    for (int64_t h = 0; h < in; ++h) acc += splat(w[h]) * load(a + h * chunk + j);
    store(s + j, acc);
  }
}

// The hidden activations of a chunk, layer after layer from the start of `scratch`; returns the last one.
MILAB_INLINE const float* hiddenActivations(const JointRowsNet& net, const float* hx, const float* hyT, int64_t ld,
                                            int64_t pairs, int64_t chunk, float* scratch) {
  firstLayer(hx, hyT, ld, net.widths[0], pairs, chunk, scratch);
  float* a = scratch;
  for (int64_t l = 0; l + 1 < net.layers; ++l) {
    float* next = a + net.widths[l] * chunk;
    hiddenLayer(net.weights[l], net.biases[l], net.widths[l + 1], net.widths[l], a, pairs, chunk, next);
    a = next;
  }
  return a;
}

// gw[k][h] += sum_j dz[k][j] a[h][j] and gb[k] += sum_j dz[k][j], lane by lane (gw [out][in][T], gb [out][T]):
// RK x RH sums in registers over the chunk, added to the lanes once a chunk (summing the lanes at every chunk cost
// more than the products).
template <int64_t RK, int64_t RH>
MILAB_INLINE void weightGradients(const float* dz, int64_t dzStride, int64_t out, const float* a, int64_t in,
                                  int64_t pairs, int64_t chunk, float* gw, float* gb) {
  for (int64_t k0 = 0; k0 < out; k0 += RK) {
    for (int64_t h0 = 0; h0 < in; h0 += RH) {
      Pairs acc[RK][RH] = {};
      for (int64_t j = 0; j < pairs; j += T) {
        Pairs d[RK], v[RH];
#pragma GCC unroll 8
        for (int64_t r = 0; r < RK; ++r) d[r] = load(dz + (k0 + r) * dzStride + j);
#pragma GCC unroll 8
        for (int64_t c = 0; c < RH; ++c) v[c] = load(a + (h0 + c) * chunk + j);
#pragma GCC unroll 8
        for (int64_t r = 0; r < RK; ++r)
#pragma GCC unroll 8
          for (int64_t c = 0; c < RH; ++c) acc[r][c] += d[r] * v[c];
      }
#pragma GCC unroll 8
      for (int64_t r = 0; r < RK; ++r)
#pragma GCC unroll 8
        for (int64_t c = 0; c < RH; ++c) {
          float* lanes = gw + ((k0 + r) * in + h0 + c) * T;
          store(lanes, load(lanes) + acc[r][c]);
        }
    }
    for (int64_t r = 0; r < RK; ++r) {
      Pairs total = load(gb + (k0 + r) * T);
      for (int64_t j = 0; j < pairs; j += T) total += load(dz + (k0 + r) * dzStride + j);
      store(gb + (k0 + r) * T, total);
    }
  }
}

// da[h][j] = (sum_k w[k][h] dz[k][j]) through activation h's ReLU, eight units' sums in registers.
MILAB_INLINE void inputGradients(const float* w, int64_t out, int64_t in, const float* dz, int64_t dzStride,
                                 const float* a, int64_t pairs, int64_t chunk, float* da) {
  for (int64_t j = 0; j < pairs; j += T)
    for (int64_t h0 = 0; h0 < in; h0 += U) {
      Pairs acc[U] = {};
      for (int64_t k = 0; k < out; ++k) {
        const Pairs d = load(dz + k * dzStride + j);
#pragma GCC unroll 8
        for (int64_t r = 0; r < U; ++r) acc[r] += splat(w[k * in + h0 + r]) * d;
      }
#pragma GCC unroll 8
      for (int64_t r = 0; r < U; ++r)
        store(da + (h0 + r) * chunk + j, throughRelu(acc[r], load(a + (h0 + r) * chunk + j)));
    }
}

// dhx[h] += sum_j dz[h][j] and dhyT[h][j] += dz[h][j]: hx[h] + hyT[h][j] fed pair j's first layer.
MILAB_INLINE void firstLayerGradients(const float* dz, int64_t width, int64_t pairs, int64_t chunk, int64_t ld,
                                      float* dhx, float* dhyT) {
  for (int64_t h = 0; h < width; ++h) {
    Pairs total{};
    for (int64_t j = 0; j < pairs; j += T) {
      const Pairs d = load(dz + h * chunk + j);
      total += d;
      store(dhyT + h * ld + j, load(dhyT + h * ld + j) + d);
    }
    dhx[h] += lanesSum(total);
  }
}

int64_t padded(int64_t n) { return (n + T - 1) / T * T; }

}  // namespace

int64_t jointRowsScratch(const JointRowsNet& net, int64_t chunk) {
  const Layout l = layout(net);
  return (l.hidden + 2 * l.widest + 1) * chunk;
}

MILAB_CLONED_FOR_AVX512 void jointRowsForward(const JointRowsNet& net, const float* hx, const float* hyT, int64_t ld,
                                              int64_t n, int64_t chunk, float* scratch, float* scores) {
  const Layout l = layout(net);
  const int64_t pairs = padded(n), last = net.layers - 1;
  const float* a = hiddenActivations(net, hx, hyT, ld, pairs, chunk, scratch);
  float* row = scratch + (l.hidden + 2 * l.widest) * chunk;
  outputLayer(net.weights[last], net.biases[last][0], net.widths[last], a, pairs, chunk, row);
  std::memcpy(scores, row, n * sizeof(float));
}

MILAB_CLONED_FOR_AVX512 void jointRowsBackward(const JointRowsNet& net, const float* hx, const float* hyT, int64_t ld,
                                               int64_t n, int64_t chunk, float* scratch, const float* g,
                                               float* const* gradWeights, float* const* gradBiases, float* dhx,
                                               float* dhyT) {
  const Layout l = layout(net);
  const int64_t pairs = padded(n);
  hiddenActivations(net, hx, hyT, ld, pairs, chunk, scratch);
  // Two gradient rows, taken in turn, and the scores' gradient padded with zeros (so padding pairs add nothing).
  float* gradRows[2] = {scratch + l.hidden * chunk, scratch + (l.hidden + l.widest) * chunk};
  float* gradScores = scratch + (l.hidden + 2 * l.widest) * chunk;
  std::memcpy(gradScores, g, n * sizeof(float));
  std::fill(gradScores + n, gradScores + pairs, 0.0f);

  const float* dz = gradScores;
  int64_t dzStride = 0, offset = l.hidden * chunk;
  for (int64_t layer = net.layers - 1; layer >= 0; --layer) {
    const int64_t out = net.widths[layer + 1], in = net.widths[layer];
    offset -= in * chunk;
    const float* a = scratch + offset;
    if (out == 1)
      weightGradients<1, 8>(dz, dzStride, out, a, in, pairs, chunk, gradWeights[layer], gradBiases[layer]);
    else
      weightGradients<4, 4>(dz, dzStride, out, a, in, pairs, chunk, gradWeights[layer], gradBiases[layer]);
    float* da = gradRows[layer % 2];
    inputGradients(net.weights[layer], out, in, dz, dzStride, a, pairs, chunk, da);
    dz = da;
    dzStride = chunk;
  }
  // dz is now the first layer's pre-activation gradient: hx[h] + hyT[h][j] feeds pair j.
  firstLayerGradients(dz, net.widths[0], pairs, chunk, ld, dhx, dhyT);
}

}  // namespace milab
