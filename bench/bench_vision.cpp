// DEMI's vision experiment on this machine: images per second of each objective's training step (batch 256, the
// encoder's default widths, every thread LibTorch is given), the share of a step the augmentations take (drawing
// the batch's three views), and the linear probe's time (features of 10,000 + 10,000 images and the L-BFGS fit).
//   usage: bench_vision [steps=20] [batch=256]
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <QCoreApplication>
#include <chrono>
#include <cstdio>
#include <utility>
#include <vector>

#include "engine/device.h"
#include "engine/run_spec.h"
#include "method/estimator.h"
#include "method/method_registry.h"
#include "method/representation_probe.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  const int steps = argc > 1 ? std::max(2, std::atoi(argv[1])) : 20;
  const int batch = argc > 2 ? std::max(2, std::atoi(argv[2])) : 256;
  initTorchRuntime();
  MethodRegistry registry;
  registry.loadDefault();
  std::printf("fashion-mnist-views, batch %d, CPU, %d intra-op threads, %d steps after 2 of warm-up\n", batch,
              at::get_num_threads(), steps);
  std::printf("%-26s %12s %12s %16s %12s %10s\n", "method", "images/s", "ms/step", "augmentation", "probe s", "map s");
  // The in-batch objectives, then two with MoCo's queue of 4096 keys (y through the momentum copy, no gradient).
  const std::vector<std::pair<const char*, int>> rows{{"infonce-vision", 0},    {"infomin-multi", 0},
                                                      {"demi-vision", 0},       {"demi-vision-is", 0},
                                                      {"infonce-vision", 4096}, {"demi-vision", 4096}};
  for (const auto& [method, queue] : rows) {
    RunSpec spec;
    spec.task = "fashion-mnist-views";
    spec.method = method;
    spec.methodParams = {{"batch", batch}, {"queue", queue}};
    spec.device = "cpu";
    if (const QString err = validateRunSpec(&spec, registry); !err.isEmpty()) qFatal("%s", qPrintable(err));
    const std::unique_ptr<TaskModel> task = buildTask(spec.task, spec.taskParams, 1);
    const std::unique_ptr<TaskSampler> sampler = task->sampler(c10::Device(c10::kCPU));
    EstimatorContext ctx;
    ctx.task = sampler.get();
    ctx.generator = estimatorGenerator(1);
    ctx.noise = ctx.generator;
    ctx.params = spec.methodParams;
    const std::unique_ptr<Estimator> estimator = registry.find(method)->create(ctx);
    for (int i = 0; i < 2; ++i) estimator->trainStep(sampler->sampleJoint(batch, ctx.noise));
    double sampling = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) {
      const auto drawn = std::chrono::steady_clock::now();
      const Batch b = sampler->sampleJoint(batch, ctx.noise);
      sampling += secondsSince(drawn);
      estimator->trainStep(b).loss.value();  // the step's end, read on the host
    }
    const double total = secondsSince(start);
    const auto probing = std::chrono::steady_clock::now();
    const double accuracy = dynamic_cast<RepresentationProbe&>(*estimator).probeAccuracy();
    const double probe = secondsSince(probing);
    const auto mapping = std::chrono::steady_clock::now();
    const EmbeddingMap map = dynamic_cast<RepresentationProbe&>(*estimator).embeddingMap();
    const double mapSeconds = secondsSince(mapping);
    const QString name = queue ? QStringLiteral("%1 queue %2").arg(method).arg(queue) : QString(method);
    std::printf("%-26s %12.0f %12.1f %15.1f%% %12.2f %10.2f   (probe accuracy %.4f after %d steps; map of %d)\n",
                qPrintable(name), steps * batch / total, 1e3 * total / steps, 100 * sampling / total, probe, mapSeconds,
                accuracy, steps + 2, int(map.points.size()));
  }
  return 0;
}
