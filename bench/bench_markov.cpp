// The cross-entropy dynamic program (AMMI Algorithm 1) against brute-force enumeration of all 2^m codes, at
// m = 16 and batch 128 (encoder order o, prior order r, the paper's o = 0, r = 3 and a higher pair), and the
// dynamic program alone at m = 128, where enumeration is impossible; then AMMI's inner prior fit (G = 4 Adam
// steps against a fixed batch of encoder distributions): the dynamic program run on each step, with its backward
// pass, against LearnedPrior::fit, which runs it once and steps on the batch's aggregate windows. CPU, one
// intra-op thread.
//   usage: bench_markov [repeats=5]
#include <ATen/ATen.h>

#include <QCoreApplication>
#include <chrono>
#include <cstdio>
#include <tuple>

#include "engine/device.h"
#include "markov/enumeration.h"
#include "markov/learned_prior.h"
#include "markov/markov_code.h"

using namespace milab;

namespace {

template <typename F>
double bestSeconds(int repeats, F&& f) {  // best of `repeats`: the least disturbed by the machine
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

// markov::historyMarginals as it was until this change, transcribed: each position's probabilities read with
// select(1, i), whose backward allocates a zero-filled [B, m, 2^o] gradient per position (quadratic in m).
at::Tensor historyMarginalsBySelect(const at::Tensor& logits) {
  const int64_t B = logits.size(0), m = logits.size(1), states = logits.size(2);
  const at::Tensor p1 = at::sigmoid(logits), p0 = at::sigmoid(-logits);
  std::vector<at::Tensor> pis;
  at::Tensor pi = at::zeros({B, states}, logits.options());
  pi.select(1, 0).fill_(1.0);
  for (int64_t i = 0; i < m; ++i) {
    pis.push_back(pi);
    if (i + 1 == m) break;
    const at::Tensor from = pi.view({B, 2, states / 2});
    const at::Tensor zero = (from * p0.select(1, i).view({B, 2, states / 2})).sum(1);
    const at::Tensor one = (from * p1.select(1, i).view({B, 2, states / 2})).sum(1);
    pi = at::stack({zero, one}, 2).view({B, states});
  }
  return at::stack(pis, 1);
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
  initTorchRuntime(1);
  at::Generator gen = at::detail::createCPUGenerator(1);
  const int64_t B = 128;
  std::printf("cross entropy H(p, q), batch %lld, best of %d\n", static_cast<long long>(B), repeats);
  for (auto [o, r] : {std::pair<int64_t, int64_t>{0, 3}, {2, 8}}) {
    const int64_t m = 16;
    const at::Tensor p = at::randn({B, m, int64_t{1} << o}, gen), q = at::randn({1, m, int64_t{1} << r}, gen);
    double dpValue = 0, bruteValue = 0;
    const double dp = bestSeconds(repeats, [&] { dpValue = markov::crossEntropy(p, q).sum().item<double>(); });
    const double brute = bestSeconds(repeats, [&] {
      const at::Tensor codes = markov::allCodes(m, at::kCPU);
      const at::Tensor logP = markov::logProbOfCodes(p, codes), logQ = markov::logProbOfCodes(q, codes);
      bruteValue = -(logP.exp() * logQ).sum().item<double>();
    });
    std::printf("  m=%lld o=%lld r=%lld: DP %.3f ms, brute force %.1f ms (%.0fx); values %.4f vs %.4f\n",
                static_cast<long long>(m), static_cast<long long>(o), static_cast<long long>(r), dp * 1e3, brute * 1e3,
                brute / dp, dpValue, bruteValue);
  }
  for (auto [o, r] : {std::pair<int64_t, int64_t>{0, 3}, {2, 8}}) {
    const int64_t m = 128;
    const at::Tensor p = at::randn({B, m, int64_t{1} << o}, gen), q = at::randn({1, m, int64_t{1} << r}, gen);
    const double dp = bestSeconds(repeats, [&] { markov::crossEntropy(p, q).sum().item<double>(); });
    std::printf("  m=%lld o=%lld r=%lld: DP %.3f ms (2^128 codes: no brute force)\n", static_cast<long long>(m),
                static_cast<long long>(o), static_cast<long long>(r), dp * 1e3);
  }
  std::printf("AMMI prior fit, G = 4 Adam steps, o = 0, best of %d\n", repeats);
  for (auto [m, r, batch] : {std::tuple<int64_t, int64_t, int64_t>{8, 7, 128}, {16, 12, 64}}) {
    const int64_t G = 4;
    const at::Tensor p = at::randn({batch, m, 1}, gen);
    markov::LearnedPrior prior(m, r, 100, 0.01, gen, at::kCPU);
    const double perStep = bestSeconds(repeats, [&] {
      for (int64_t g = 0; g < G; ++g) markov::crossEntropy(p, prior.logits()).mean().backward();
    });
    const double once = bestSeconds(repeats, [&] { prior.fit(p, G); });
    std::printf("  m=%lld r=%lld batch %lld: DP every step %.2f ms (backward only, no Adam), DP once %.2f ms (%.0fx)\n",
                static_cast<long long>(m), static_cast<long long>(r), static_cast<long long>(batch), perStep * 1e3,
                once * 1e3, perStep / once);
  }
  std::printf("history marginals with their backward (a training step's DP), best of %d\n", repeats);
  for (auto [m, r, batch] : {std::tuple<int64_t, int64_t, int64_t>{32, 8, 128}, {128, 11, 16}}) {
    const at::Tensor logits = at::randn({batch, m, int64_t{1} << r}, gen).requires_grad_();
    const at::Tensor weights = at::randn({batch, m, int64_t{1} << r}, gen);
    at::Tensor gradNew, gradOld;
    const double unbound = bestSeconds(repeats, [&] {
      logits.mutable_grad() = at::Tensor();
      (markov::historyMarginals(logits) * weights).sum().backward();
      gradNew = logits.grad().clone();
    });
    const double selected = bestSeconds(repeats, [&] {
      logits.mutable_grad() = at::Tensor();
      (historyMarginalsBySelect(logits) * weights).sum().backward();
      gradOld = logits.grad().clone();
    });
    std::printf("  m=%lld r=%lld batch %lld: unbind once %.1f ms, select per position %.1f ms (%.1fx); gradients "
                "differ by at most %.1e\n",
                static_cast<long long>(m), static_cast<long long>(r), static_cast<long long>(batch), unbound * 1e3,
                selected * 1e3, selected / unbound, (gradNew - gradOld).abs().max().item<double>());
  }
  return 0;
}
