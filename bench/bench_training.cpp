// Training steps per second on CPU for infonce and demi at K=128 and K=512, through the real engine and
// plugins, beside a reference measured in the same process: a bare LibTorch loop of the same InfoNCE step
// (same MLPs, Adam, sampling), which shows what the engine and plugin layers cost.
//   usage: bench_training [steps=400] [threads=all]
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/optim/adam.h>

#include <QCoreApplication>

#include <chrono>
#include <cstdio>

#include "engine/device.h"
#include "engine/run.h"
#include "method/method_registry.h"
#include "nn/bounds.h"
#include "nn/mlp.h"
#include "tasks/task_catalog.h"
#include "tasks/task_sampler.h"

using namespace milab;

namespace {

// Steps per second over the steps after the first `warmup` (allocator and BLAS warm-up excluded).
double engineStepsPerSecond(const MethodRegistry& registry, const QString& method, int K, int steps) {
  RunSpec spec;
  spec.task = "gaussian3";
  spec.method = method;
  spec.methodParams = {{"K", K}};
  spec.steps = steps;
  spec.device = "cpu";
  if (const QString err = validateRunSpec(&spec, registry); !err.isEmpty()) qFatal("%s", qPrintable(err));
  Run run(spec, registry.find(method));
  runToCompletion(run);
  const QVector<CurvePoint> c = run.curve();
  const int warmup = steps / 10;
  return (c.size() - 1 - warmup) / (c.last().seconds - c[warmup].seconds);
}

double bareInfoNceStepsPerSecond(int K, int steps) {
  const GaussianModel model = GaussianModel::triple(20, 10.0, std::nullopt, 1);
  const TaskSampler sampler(model, c10::Device(c10::kCPU));
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(1);
  Mlp f(40, 100, 100, gen), g(20, 100, 100, gen);
  std::vector<at::Tensor> params = f->parameters();
  for (const at::Tensor& p : g->parameters()) params.push_back(p);
  torch::optim::Adam adam(params, torch::optim::AdamOptions(5e-4));
  const int warmup = steps / 10;
  auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    if (s == warmup) t0 = std::chrono::steady_clock::now();
    const Batch b = sampler.sampleJoint(K, gen);
    const at::Tensor loss = -inBatchNce(f->forward(at::cat({b.x, b.xp}, 1)).matmul(g->forward(b.y).t()));
    adam.zero_grad();
    loss.backward();
    adam.step();
    (void)loss.item<double>();
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return (steps - warmup) / secs;
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const int steps = argc > 1 ? std::atoi(argv[1]) : 400;
  initTorchRuntime(argc > 2 ? std::atoi(argv[2]) : 0);
  MethodRegistry registry;
  registry.loadDefault();
  std::printf("gaussian3 d=20 MI=10, MLP 100/100, Adam, CPU, %d intra-op threads, %d steps per figure\n",
              at::get_num_threads(), steps);
  std::printf("%-28s %6s %12s %18s\n", "method", "K", "steps/s", "vs bare InfoNCE");
  for (int K : {128, 512}) {
    const double bare = bareInfoNceStepsPerSecond(K, steps);
    std::printf("%-28s %6d %12.1f %18s\n", "bare LibTorch InfoNCE loop", K, bare, "1.00");
    for (const char* method : {"infonce", "demi"}) {
      const double sps = engineStepsPerSecond(registry, method, K, steps);
      std::printf("%-28s %6d %12.1f %18.2f\n", method, K, sps, sps / bare);
    }
  }
  return 0;
}
