// The joint critic's step and held-out reading on a CPU, written out (JointCpuPass) against the autograd route
// through ATen's ops (what the step was before), one intra-op thread: bmi's recipe's shapes (batch 256, x and y of
// 5 dimensions; the held-out half of 5,000 rows read whole) for a few critic widths. Then, in alternating rounds,
// bmi's own (16, 8) step and reading in PyTorch (bench/peer_bmi_step.py over ../shared/bench/peer_bmi.py) beside
// milab's, when /usr/bin/python3 imports torch and the reference is there.
//   usage: bench_joint_step [reps=200] [rounds=3]
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

#include <QCoreApplication>
#include <QFile>
#include <QList>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "engine/device.h"
#include "nn/in_batch_nce_backward.h"
#include "nn/joint_critic.h"

using namespace milab;

namespace {

// Warm-up rounds first (the allocator, caches; a process's first autograd and parallel calls cost ~0.3 s once).
double millisecondsEach(int reps, const std::function<void()>& work) {
  for (int i = 0; i < std::max(3, reps / 5); ++i) work();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) work();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps;
}

const QString kPeer = QStringLiteral(MILAB_SOURCE_DIR "/../shared/bench/peer_bmi.py");

// The peer's step and whole reading in ms ({0, 0} when it cannot run).
std::pair<double, double> peerMilliseconds(int steps) {
  QProcess p;
  p.start("/usr/bin/python3", {QStringLiteral(MILAB_SOURCE_DIR "/bench/peer_bmi_step.py"), kPeer, "--steps",
                               QString::number(steps), "--reads", "3"});
  if (!p.waitForFinished(1200000) || p.exitCode() != 0) return {0, 0};
  const auto m = QRegularExpression("step_ms=([0-9.]+) read_ms=([0-9.]+)")
                     .match(QString::fromLocal8Bit(p.readAllStandardOutput()));
  return m.hasMatch() ? std::make_pair(m.captured(1).toDouble(), m.captured(2).toDouble()) : std::make_pair(0.0, 0.0);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const int reps = argc > 1 ? std::atoi(argv[1]) : 200;
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  initTorchRuntime(1);
  const int64_t batch = 256, heldOut = 2500, dim = 5;
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(1);
  const at::Tensor x = at::randn({heldOut, dim}, gen), y = (x + at::randn({heldOut, dim}, gen)).contiguous();
  const at::Tensor xs = x.narrow(0, 0, batch).contiguous(), ys = y.narrow(0, 0, batch).contiguous();
  InBatchNceBackward inBatchNceGradient;  // InfoNCE's gradient at the scores, as ScoreMatrixEstimator trains it
  const ScoresObjective objective = std::ref(inBatchNceGradient);
  std::printf("joint critic, batch %lld (InfoNCE's step), held-out %lld x %lld, x and y of %lld dims, one thread, ms\n",
              (long long)batch, (long long)heldOut, (long long)heldOut, (long long)dim);
  std::printf("  %-8s %12s %12s %8s %12s %12s %8s\n", "layers", "step pass", "step ATen", "ratio", "read pass",
              "read ATen", "ratio");
  for (const QList<int>& layers : {QList<int>{16, 8}, QList<int>{32, 16}, QList<int>{64, 32}}) {
    JointCritic critic(dim, dim, layers, 1e-3, c10::kCPU, gen);
    const double stepPass = millisecondsEach(reps, [&] { critic.writeGradients(xs, ys, objective); });
    const at::Tensor strided = xs.t().contiguous().t();  // not contiguous: the autograd route
    const double stepAten = millisecondsEach(reps, [&] { critic.writeGradients(strided, ys, objective); });
    const int readReps = std::max(1, reps / 20);
    c10::NoGradGuard noGraph;
    const double readPass = millisecondsEach(readReps, [&] { critic.scores(x, y); });
    const double readAten = millisecondsEach(readReps, [&] { critic.scores(x.t().contiguous().t(), y); });
    const QString name = QString::number(layers[0]) + "," + QString::number(layers[1]);
    std::printf("  %-8s %12.3f %12.3f %8.2f %12.2f %12.2f %8.2f\n", qPrintable(name), stepPass, stepAten,
                stepAten / stepPass, readPass, readAten, readAten / readPass);
  }

  // bmi's (16, 8) critic in PyTorch against milab's, a whole training step each (Adam included), alternating.
  if (!QFile::exists(kPeer) || peerMilliseconds(2).first == 0) {
    std::printf("(no peer: %s missing or /usr/bin/python3 cannot import torch)\n", qPrintable(kPeer));
    return 0;
  }
  JointCritic critic(dim, dim, {16, 8}, 1e-3, c10::kCPU, gen);
  std::vector<double> stepRatios, readRatios;
  for (int round = 0; round < rounds; ++round) {
    const double step = millisecondsEach(reps, [&] { critic.trainOnScores(xs, ys, objective); });
    double read;
    {
      c10::NoGradGuard noGraph;
      read = millisecondsEach(std::max(1, reps / 20), [&] { critic.inBatchNce(x, y); });
    }
    const auto [peerStep, peerRead] = peerMilliseconds(std::max(20, reps / 4));
    std::printf("  round %d: step %.3f ms (peer %.3f), InfoNCE read of the held-out half %.2f ms (peer %.2f)\n",
                round + 1, step, peerStep, read, peerRead);
    stepRatios.push_back(peerStep / step);
    readRatios.push_back(peerRead / read);
  }
  std::printf("bmi's joint critic in PyTorch against milab's, median of %d rounds: step %.1fx, read %.1fx\n", rounds,
              median(stepRatios), median(readRatios));
}
