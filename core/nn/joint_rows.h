#pragma once
// The joint critic's per-pair layers for one row of x against a run of y's, as register-blocked float loops
// (nn/joint_cpu_pass calls them). Activations are stored unit by unit ([width][chunk]), so every operation runs
// along 16 pairs at once (one AVX-512 register) with eight units' sums held in registers; a chunk's activations stay
// in the first levels of cache, where ATen's ops stream each [B x M, width] activation through memory once per
// operation. Written with GCC's vector types so that one source serves every instruction set the loops are cloned
// for (nn/target_clones.h). Torch-free.
#include <cstdint>

namespace milab {

// Pairs are handled 16 at a time, units 8 at a time: hidden widths must be multiples of kJointUnitBlock (the pass
// pads the network with units of zero weight, which read zero and get zero gradient), chunks multiples of
// kJointPairTile.
constexpr int64_t kJointPairTile = 16;
constexpr int64_t kJointUnitBlock = 8;

// The layers after the split first layer, as raw arrays: weights[l] is [widths[l + 1], widths[l]] row-major and
// biases[l] [widths[l + 1]] for l < layers, with widths[0] the first layer's width and widths[layers] == 1.
struct JointRowsNet {
  const int64_t* widths;
  int64_t layers;
  const float* const* weights;
  const float* const* biases;
};

// Floats of scratch one chunk of pairs needs: every hidden activation, two gradient rows and a row of scores.
int64_t jointRowsScratch(const JointRowsNet& net, int64_t chunk);

// scores[j] = T(pair j) for j < n <= chunk: hx [widths[0]] is x's first-layer output (bias included), hyT the first
// of n columns of y's ([widths[0]] rows of stride ld, readable up to n rounded up to kJointPairTile).
void jointRowsForward(const JointRowsNet& net, const float* hx, const float* hyT, int64_t ld, int64_t n, int64_t chunk,
                      float* scratch, float* scores);

// From g[j] = d(loss)/d(scores[j]): adds every later layer's gradient to gradWeights[l] and gradBiases[l], lane by
// lane ([widths[l + 1]][widths[l]][kJointPairTile] and [widths[l + 1]][kJointPairTile]: the caller sums the lanes
// once a batch), x's first-layer gradient to dhx [widths[0]] and y's to dhyT (laid out as hyT; its columns from n
// to the next multiple of kJointPairTile get zeros added).
void jointRowsBackward(const JointRowsNet& net, const float* hx, const float* hyT, int64_t ld, int64_t n, int64_t chunk,
                       float* scratch, const float* g, float* const* gradWeights, float* const* gradBiases, float* dhx,
                       float* dhyT);

}  // namespace milab
