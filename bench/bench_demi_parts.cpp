// Where DEMI's step spends its time on a CPU (gaussian3, d = 20, MI 10, alpha 0.5, K = 128: B = 64 rows, 63
// conditional negatives each, f and g 100/100): the whole written-out step, then its parts alone, each timed over
// the same inputs, one intra-op thread. For the next person who tries to make it faster: measure here first.
//   usage: bench_demi_parts [K=128] [reps=2000]
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "demi/candidate_nce.h"
#include "demi/demi_step.h"
#include "engine/device.h"
#include "gaussian_model.h"
#include "gaussian_sampler.h"
#include "nn/separable_critic.h"
#include "nn/sgemm.h"

using namespace milab;

namespace {

double microsecondsEach(int reps, const std::function<void()>& work) {
  for (int i = 0; i < reps / 10; ++i) work();  // warm-up: allocator, caches
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) work();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps;
}

}  // namespace

int main(int argc, char** argv) {
  const int K = argc > 1 ? std::atoi(argv[1]) : 128;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 2000;
  initTorchRuntime(1);
  const int d = 20, h = 100, b = K / 2, c = K / 2 - 1;
  const GaussianModel model = GaussianModel::triple(d, 10.0, 0.5, 1);
  const GaussianSampler sampler(model, c10::Device(c10::kCPU));
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(1);
  SeparableCritic critic(2 * d, d, h, h, 5e-4, c10::Device(c10::kCPU), gen);
  const Batch batch = sampler.sampleJoint(b, gen);
  const at::Tensor negatives = sampler.sampleYGivenXp(batch.xp, c, gen);
  std::printf("DEMI's step parts, gaussian3 d=%d MI=10, K=%d (B=%d, %d negatives per row), %d reps, us each\n", d, K, b,
              c, reps);
  auto row = [&](const char* name, double us) { std::printf("  %-44s %9.1f\n", name, us); };
  row("whole step (joint batch, negatives, trainDemi)", microsecondsEach(reps, [&] {
        const Batch j = sampler.sampleJoint(b, gen);
        trainDemi(critic, j.xp, j.x, j.y, DemiConditional::cnceNegatives, sampler.sampleYGivenXp(j.xp, c, gen));
      }));
  SeparableCritic infonce(2 * d, d, h, h, 5e-4, c10::Device(c10::kCPU), gen);
  row("InfoNCE's whole step at the same K, for scale", microsecondsEach(reps, [&] {
        const Batch j = sampler.sampleJoint(K, gen);
        infonce.trainInBatchNce(at::cat({j.xp, j.x}, 1), j.y);
      }));
  const Batch full = sampler.sampleJoint(K, gen);  // InfoNCE's fixed inputs: one joint batch of K
  const at::Tensor xFull = at::cat({full.xp, full.x}, 1), yFull = full.y.contiguous();
  row("InfoNCE on fixed inputs (trainInBatchNce)",
      microsecondsEach(reps, [&] { infonce.trainInBatchNce(xFull, yFull); }));
  SeparableCpuPass pass;
  row("  forward (SeparableCpuPass)",
      microsecondsEach(reps, [&] { pass.forward(infonce.xNetwork(), infonce.yNetwork(), xFull, yFull); }));
  const at::Tensor fixedScores = pass.forward(infonce.xNetwork(), infonce.yNetwork(), xFull, yFull).clone();
  const at::Tensor fixedGrad = infonce.inBatchNceBackward(fixedScores).gradScores;
  row("  the bound's gradient (inBatchNceBackward)",
      microsecondsEach(reps, [&] { infonce.inBatchNceBackward(fixedScores); }));
  row("  backward (SeparableCpuPass)",
      microsecondsEach(reps, [&] { pass.backward(infonce.xNetwork(), infonce.yNetwork(), fixedGrad); }));
  row("  Adam", microsecondsEach(reps, [&] { infonce.stepOnWrittenGradients(); }));
  row("trainDemi on fixed inputs", microsecondsEach(reps, [&] {
        trainDemi(critic, batch.xp, batch.x, batch.y, DemiConditional::cnceNegatives, negatives);
      }));
  row("joint batch (sampleJoint)", microsecondsEach(reps, [&] { sampler.sampleJoint(b, gen); }));
  row("negatives (sampleYGivenXp)", microsecondsEach(reps, [&] { sampler.sampleYGivenXp(batch.xp, c, gen); }));
  const at::Tensor weight = at::randn({h, d}, gen) * 0.1, bias = at::randn({h}, gen) * 0.1;
  const at::Tensor rows = at::randn({b, h}, gen) * 0.1, offsets = at::randn({b}, gen), positive = at::randn({b}, gen);
  row("fused candidate pass (fusedCandidateNce)",
      microsecondsEach(reps, [&] { fusedCandidateNce(weight, bias, rows, offsets, positive, negatives); }));
  // The pass's two GEMMs as it calls them (nn/sgemm: oneDNN where the build found it, else ATen's mm).
  const at::Tensor units = at::empty({b * c, h});
  const at::Tensor weightT = weight.t().contiguous(), gradT = at::zeros({d, h});
  const char* through = sgemmThroughOneDnn() ? "oneDNN" : "ATen";
  row((std::string("  its first GEMM ([B C, d] x [d, H], ") + through + ")").c_str(), microsecondsEach(reps, [&] {
        sgemm('N', 'N', b * c, h, d, negatives.data_ptr<float>(), weightT.data_ptr<float>(), 0.f,
              units.data_ptr<float>());
      }));
  row((std::string("  its gradient GEMM ([d, B C] x [B C, H], ") + through + ")").c_str(), microsecondsEach(reps, [&] {
        sgemm('T', 'N', d, h, b * c, negatives.data_ptr<float>(), units.data_ptr<float>(), 0.f,
              gradT.data_ptr<float>());
      }));
  return 0;
}
