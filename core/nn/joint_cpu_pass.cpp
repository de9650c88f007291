// JointCpuPass (nn/joint_cpu_pass.h says why it is written out).
#include "nn/joint_cpu_pass.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/GradMode.h>

#include <algorithm>
#include <cmath>

#include "nn/fusable.h"
#include "nn/softmax_rows.h"

namespace milab {

namespace {

// Pairs per chunk: a (16, 8) critic's activations for 256 pairs take 24 KB, inside a core's first-level cache.
constexpr int64_t kChunk = 256;

float* raw(const at::Tensor& t) { return t.data_ptr<float>(); }

// Rows of scores per parallel task: about 32,768 pairs each.
int64_t rowsPerTask(int64_t columns) {
  return std::max<int64_t>(1, (int64_t(1) << 15) / std::max<int64_t>(1, columns));
}

int64_t roundUp(int64_t n, int64_t block) { return (n + block - 1) / block * block; }

// `source` (1-D or 2-D) copied to the top left of `into`, a zero [rows, cols] made on first use: the padding is
// never written, so it stays zero while the shapes stay.
void padInto(at::Tensor& into, const at::Tensor& source, int64_t rows, int64_t cols) {
  if (!into.defined() || into.size(0) != rows || into.size(1) != cols) into = at::zeros({rows, cols}, at::kFloat);
  const at::Tensor s = source.dim() == 1 ? source.unsqueeze(0) : source;
  into.narrow(0, 0, s.size(0)).narrow(1, 0, s.size(1)).copy_(s);
}

bool allFusable(const std::vector<at::Tensor>& parameters, const at::Tensor& xs, const at::Tensor& ys) {
  if (parameters.size() < 5 || parameters.size() % 2 == 0 || !fusable(xs) || !fusable(ys)) return false;
  return std::all_of(parameters.begin(), parameters.end(), [](const at::Tensor& p) { return fusable(p); });
}

}  // namespace

void JointCpuPass::pad(const std::vector<at::Tensor>& p, const at::Tensor& xs, const at::Tensor& ys, Padded& net) {
  // Without it, copying the parameters' products into the kept buffers recorded an autograd node each step (the
  // buffers then required grad), and each node chained to the last with its batch: memory grew by about K x the
  // input's width every step. The pass computes its own gradients; autograd has nothing to record here.
  c10::NoGradGuard noGrad;
  const int64_t later = int64_t(p.size() - 3) / 2, h = roundUp(p[0].size(0), kJointUnitBlock);
  net.weights.resize(later);
  net.biases.resize(later);
  net.widths.assign(1, h);
  net.weightData.clear();
  net.biasData.clear();
  for (int64_t l = 0; l < later; ++l) {
    const at::Tensor &w = p[3 + 2 * l], &b = p[4 + 2 * l];
    const int64_t out = l + 1 == later ? 1 : roundUp(w.size(0), kJointUnitBlock);
    padInto(net.weights[l], w, out, net.widths.back());
    padInto(net.biases[l], b, 1, out);
    net.widths.push_back(out);
    net.weightData.push_back(raw(net.weights[l]));
    net.biasData.push_back(raw(net.biases[l]));
  }
  padInto(net.hx, at::addmm(p[2], xs, p[0].t()), xs.size(0), h);
  padInto(net.hyT, at::mm(ys, p[1].t()).t(), h, roundUp(ys.size(0), kJointPairTile));
}

JointRowsNet JointCpuPass::Padded::rows() const {
  return {widths.data(), int64_t(weightData.size()), weightData.data(), biasData.data()};
}

void JointCpuPass::Padded::scoreRow(int64_t i, int64_t m, float* scratch, float* out) const {
  const JointRowsNet net = rows();
  const int64_t h = widths[0], ld = hyT.size(1);
  for (int64_t j = 0; j < m; j += kChunk)
    jointRowsForward(net, raw(hx) + i * h, raw(hyT) + j, ld, std::min(kChunk, m - j), kChunk, scratch, out + j);
}

bool JointCpuPass::takes(const std::vector<at::Tensor>& parameters, const at::Tensor& xs, const at::Tensor& ys) {
  return allFusable(parameters, xs, ys) && std::all_of(parameters.begin(), parameters.end(), [](const at::Tensor& p) {
           return p.grad().defined() && fusable(p.grad());
         });
}

at::Tensor JointCpuPass::scores(const std::vector<at::Tensor>& parameters, const at::Tensor& xs, const at::Tensor& ys) {
  Padded padded;
  pad(parameters, xs, ys, padded);
  const int64_t b = xs.size(0), m = ys.size(0);
  at::Tensor out = at::empty({b, m}, at::kFloat);
  at::parallel_for(0, b, rowsPerTask(m), [&](int64_t begin, int64_t end) {
    std::vector<float> scratch(jointRowsScratch(padded.rows(), kChunk));
    for (int64_t i = begin; i < end; ++i) padded.scoreRow(i, m, scratch.data(), raw(out) + i * m);
  });
  return out;
}

double JointCpuPass::inBatchNce(const std::vector<at::Tensor>& parameters, const at::Tensor& xs, const at::Tensor& ys) {
  Padded padded;
  pad(parameters, xs, ys, padded);
  const int64_t k = xs.size(0);
  std::vector<double> perRow(k);  // each row's log-softmax at its own pair, summed in order after
  at::parallel_for(0, k, rowsPerTask(k), [&](int64_t begin, int64_t end) {
    std::vector<float> scratch(jointRowsScratch(padded.rows(), kChunk)), row(k), exps(k);
    for (int64_t i = begin; i < end; ++i) {
      padded.scoreRow(i, k, scratch.data(), row.data());
      perRow[i] = double(row[i]) - double(logSumExp(row.data(), k, exps.data()));
    }
  });
  double total = 0;
  for (double v : perRow) total += v;
  return total / double(k) + std::log(double(k));
}

const at::Tensor& JointCpuPass::forward(const std::vector<at::Tensor>& parameters, const at::Tensor& xs,
                                        const at::Tensor& ys) {
  pad(parameters, xs, ys, net_);
  const int64_t b = xs.size(0), m = ys.size(0);
  if (!scores_.defined() || scores_.size(0) != b || scores_.size(1) != m) scores_ = at::empty({b, m}, at::kFloat);
  const int64_t scratch = jointRowsScratch(net_.rows(), kChunk);
  if (!scratch_.defined() || scratch_.numel() != scratch) scratch_ = at::empty({scratch}, at::kFloat);
  xs_ = xs;
  ys_ = ys;
  for (int64_t i = 0; i < b; ++i) net_.scoreRow(i, m, raw(scratch_), raw(scores_) + i * m);
  return scores_;
}

void JointCpuPass::backward(const std::vector<at::Tensor>& parameters, const at::Tensor& gradScores) {
  c10::NoGradGuard noGrad;  // the gradients are written, not recorded (pad says why it matters)
  const JointRowsNet net = net_.rows();
  const int64_t b = xs_.size(0), m = ys_.size(0), h = net.widths[0], ld = net_.hyT.size(1);
  // The later layers' gradients summed over every pair lane by lane, padded as the network, with a last dimension
  // of kJointPairTile lanes.
  sums_.resize(2 * net_.weights.size());
  std::vector<float*> gradWeights, gradBiases;
  for (size_t i = 0; i < sums_.size(); ++i) {
    const at::Tensor& shape = i % 2 == 0 ? net_.weights[i / 2] : net_.biases[i / 2];
    if (!sums_[i].defined() || sums_[i].size(0) != shape.size(0) || sums_[i].size(1) != shape.size(1))
      sums_[i] = at::empty({shape.size(0), shape.size(1), kJointPairTile}, at::kFloat);
    sums_[i].zero_();
    (i % 2 == 0 ? gradWeights : gradBiases).push_back(raw(sums_[i]));
  }
  if (!dhx_.defined() || !dhx_.sizes().equals(net_.hx.sizes())) dhx_ = at::empty_like(net_.hx);
  if (!dhyT_.defined() || !dhyT_.sizes().equals(net_.hyT.sizes())) dhyT_ = at::empty_like(net_.hyT);
  dhx_.zero_();
  dhyT_.zero_();
  const float* g = raw(gradScores);
  for (int64_t i = 0; i < b; ++i)
    for (int64_t j = 0; j < m; j += kChunk)
      jointRowsBackward(net, raw(net_.hx) + i * h, raw(net_.hyT) + j, ld, std::min(kChunk, m - j), kChunk,
                        raw(scratch_), g + i * m + j, gradWeights.data(), gradBiases.data(), raw(dhx_) + i * h,
                        raw(dhyT_) + j);
  // Each parameter's gradient is the top left of its padded sum, its lanes added in double.
  for (size_t i = 0; i < sums_.size(); ++i) {
    at::Tensor grad = parameters[3 + i].mutable_grad();
    const at::Tensor lanes = sums_[i].sum(2, false, at::kDouble);
    const at::Tensor sum = i % 2 == 0 ? lanes : lanes.squeeze(0);
    grad.copy_(grad.dim() == 2 ? sum.narrow(0, 0, grad.size(0)).narrow(1, 0, grad.size(1))
                               : sum.narrow(0, 0, grad.size(0)));
  }
  // The first layer: wx's gradient dhx^T xs, wy's dhyT ys, b1's the column sums of dhx (padding cut off).
  const int64_t units = parameters[0].size(0);
  const at::Tensor dhx = dhx_.narrow(1, 0, units), dhyT = dhyT_.narrow(0, 0, units).narrow(1, 0, m);
  at::Tensor gradWx = parameters[0].mutable_grad(), gradWy = parameters[1].mutable_grad();
  at::Tensor gradB1 = parameters[2].mutable_grad();
  at::mm_out(gradWx, dhx.t(), xs_);
  at::mm_out(gradWy, dhyT, ys_);
  at::sum_out(gradB1, dhx, 0);
}

}  // namespace milab
