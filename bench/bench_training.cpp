// Training steps per second on CPU, paired with what a PyTorch user writes in Python (bench/peer_infonce.py, the
// same InfoNCE step: two 100/100 ReLU MLPs, Adam 5e-4, in-batch negatives, d = 20, MI = 2), both on one intra-op
// thread, in alternating rounds of one session so that both see the same machine; the ratio is the median of the
// rounds' ratios. Beside them: a bare LibTorch loop of the same step (torch::optim::Adam, what a C++ user writes).
// Then, like for like on one task (gaussian3, d = 20, MI = 10, alpha = 0.5, so every method reads the same
// 40-dimensional x side): InfoNCE, the other score-matrix comparators, CNCE and the DEMI family's steps through the
// engine at K = 32, 128, 512, DEMI paired with bench/peer_demi.py (the same DEMI step in Python), in alternating
// rounds.
//   usage: bench_training [steps=2000] [rounds=3]
// The Python side runs when /usr/bin/python3 can import torch (Debian: apt-get install python3-torch).
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/optim/adam.h>

#include <QCoreApplication>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "engine/device.h"
#include "engine/run.h"
#include "gaussian_sampler.h"
#include "method/method_registry.h"
#include "nn/bounds.h"
#include "nn/mlp.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

const char* kPython = "/usr/bin/python3";

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Steps per second over the steps after the first tenth (allocator and BLAS warm-up excluded), as the engine
// runs them: the plugin's step, the cancel poll, the finite check, the curve buffer.
double engineStepsPerSecond(const MethodRegistry& registry, const QString& method, const QString& task, double mi,
                            int K, int steps) {
  RunSpec spec;
  spec.task = task;
  spec.method = method;
  spec.taskParams = {{"dim", 20}, {"mi", mi}};
  if (task == "gaussian3") spec.taskParams.insert("alpha", 0.5);
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

// The same step as a LibTorch user writes it: torch::optim::Adam over the modules' parameters.
double bareLibTorchStepsPerSecond(int K, int steps) {
  const GaussianModel model = GaussianModel::pair(20, 2.0, false);
  const GaussianSampler sampler(model, c10::Device(c10::kCPU));
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(1);
  Mlp f(20, 100, 100, gen), g(20, 100, 100, gen);
  std::vector<at::Tensor> params = f->parameters();
  for (const at::Tensor& p : g->parameters()) params.push_back(p);
  torch::optim::Adam adam(params, torch::optim::AdamOptions(5e-4));
  const int warmup = steps / 10;
  auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    if (s == warmup) t0 = std::chrono::steady_clock::now();
    const Batch b = sampler.sampleJoint(K, gen);
    const at::Tensor loss = -inBatchNce(f->forward(b.x).matmul(g->forward(b.y).t()));
    adam.zero_grad();
    loss.backward();
    adam.step();
    (void)loss.item<double>();
  }
  return (steps - warmup) / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A peer script's own steps per second (it times its loop, not Python's start), or 0 when it cannot run.
double pythonStepsPerSecond(const char* script, int K, int steps, double mi) {
  QProcess p;
  p.start(kPython, {QStringLiteral(MILAB_SOURCE_DIR "/bench/") + script, "--K", QString::number(K), "--steps",
                    QString::number(steps), "--mi", QString::number(mi), "--dim", "20", "--threads", "1"});
  if (!p.waitForFinished(600000) || p.exitCode() != 0) return 0;
  const auto m = QRegularExpression("steps_per_s=([0-9.]+)").match(QString::fromLocal8Bit(p.readAllStandardOutput()));
  return m.hasMatch() ? m.captured(1).toDouble() : 0;
}

bool pythonHasTorch() {
  QProcess p;
  p.start(kPython, {"-c", "import torch"});
  return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const int steps = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  initTorchRuntime(1);
  MethodRegistry registry;
  registry.loadDefault();
  const bool python = pythonHasTorch();
  std::printf(
      "InfoNCE step, gaussian2 d=20 MI=2, MLP 100/100, Adam 5e-4, CPU, 1 intra-op thread each, %d steps, "
      "%d paired rounds (medians)\n",
      steps, rounds);
  if (!python) std::printf("(no Python peer: %s cannot import torch; apt-get install python3-torch)\n", kPython);
  std::printf("%6s %14s %14s %14s %12s %12s\n", "K", "milab", "Python peer", "bare LibTorch", "milab/Python",
              "milab/bare");
  for (int K : {128, 512}) {
    std::vector<double> ours, peer, bare, ratio, ratioBare;
    for (int r = 0; r < rounds; ++r) {  // alternating, so drifts of the machine fall on both sides
      const double p = python ? pythonStepsPerSecond("peer_infonce.py", K, steps, 2.0) : 0;
      const double m = engineStepsPerSecond(registry, "infonce", "gaussian2", 2.0, K, steps);
      const double b = bareLibTorchStepsPerSecond(K, steps);
      ours.push_back(m);
      bare.push_back(b);
      ratioBare.push_back(m / b);
      if (p > 0) {
        peer.push_back(p);
        ratio.push_back(m / p);
      }
    }
    std::printf("%6d %14.1f %14s %14.1f %12s %12.2f\n", K, median(ours),
                peer.empty() ? "-" : qPrintable(QString::number(median(peer), 'f', 1)), median(bare),
                ratio.empty() ? "-" : qPrintable(QString::number(median(ratio), 'f', 2)), median(ratioBare));
    std::fflush(stdout);
  }
  // Every score-matrix comparator beside InfoNCE (their separable critic's step written out as InfoNCE's), then the
  // DEMI family.
  const QStringList methods{"infonce",   "nwj",  "mine", "js",      "smile",   "tuba",    "interpolated",
                            "local-nce", "cnce", "demi", "demi-bo", "demi-is", "demi-var"};
  std::printf(
      "\nLike for like: gaussian3 d=20 MI=10 alpha=0.5, through the engine, 1 intra-op thread, %d paired rounds "
      "(medians; steps/s; K = 512 runs a quarter of the steps)\n%6s",
      rounds, "K");
  for (const QString& m : methods) std::printf(" %12s", qPrintable(m));
  std::printf(" %9s %12s %12s\n", "Python", "demi/infonce", "demi/Python");
  for (int K : {32, 128, 512}) {
    const int n = K >= 512 ? steps / 4 : steps / 2;
    QMap<QString, std::vector<double>> rate;
    std::vector<double> peer, ratioNce, ratioPeer;
    for (int r = 0; r < rounds; ++r) {  // alternating, as above
      const double p = python ? pythonStepsPerSecond("peer_demi.py", K, n, 10.0) : 0;
      for (const QString& m : methods) rate[m].push_back(engineStepsPerSecond(registry, m, "gaussian3", 10.0, K, n));
      ratioNce.push_back(rate["demi"].back() / rate["infonce"].back());
      if (p > 0) {
        peer.push_back(p);
        ratioPeer.push_back(rate["demi"].back() / p);
      }
    }
    std::printf("%6d", K);
    for (const QString& m : methods) std::printf(" %12.1f", median(rate[m]));
    std::printf(" %9s %12.2f %12s\n", peer.empty() ? "-" : qPrintable(QString::number(median(peer), 'f', 1)),
                median(ratioNce), ratioPeer.empty() ? "-" : qPrintable(QString::number(median(ratioPeer), 'f', 2)));
    std::fflush(stdout);
  }
  return 0;
}
