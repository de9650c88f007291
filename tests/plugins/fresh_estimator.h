#pragma once
// A method's estimator made directly from its plugin, as a run would make it but with generators the test holds
// the seeds of: its networks from seed 11, its noise from seed 12, on a gaussian2 task of `dim` columns a side; a
// batch of 64 joint rows drawn with seed 13, read twice. A test rebuilds the networks from the same seed
// (networkSeed) and the reading's draws (reading_draws.h) to check the estimator's arithmetic against a
// transcription (test_mmg, test_minde_c).
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QtTest>
#include <memory>

#include "method/estimator.h"
#include "method/method_registry.h"
#include "nn/reading_draws.h"
#include "tasks/task_catalog.h"

namespace milab {

struct FreshEstimator {
  std::unique_ptr<TaskModel> model;
  std::unique_ptr<TaskSampler> sampler;
  std::unique_ptr<Estimator> estimator;
  Batch batch;
  ParamMap params;                          // validated, defaults filled
  Evaluation first, second;                 // the batch read twice: equal when a reading's draws follow its rows
  at::Generator networkSeed, readingDraws;  // the estimator's network seed again; the batch's reading draws
};

inline FreshEstimator freshEstimator(const MethodRegistry& registry, const QString& method, ParamMap params, int dim) {
  FreshEstimator f;
  f.model = buildTask("gaussian2", {{"dim", dim}, {"mi", 1.0}}, 1);
  f.sampler = f.model->sampler(c10::Device(c10::kCPU));
  const QString error = validateParamMap(registry.find(method)->info().params, &params, method);
  if (!error.isEmpty()) qFatal("%s", qPrintable(error));
  EstimatorContext context;
  context.task = f.sampler.get();
  context.generator = at::make_generator<at::CPUGeneratorImpl>(11);
  context.noise = at::make_generator<at::CPUGeneratorImpl>(12);
  context.params = f.params = params;
  f.estimator = registry.find(method)->create(context);
  at::Generator data = at::make_generator<at::CPUGeneratorImpl>(13);
  f.batch = f.sampler->sampleJoint(64, data);
  f.first = f.estimator->evaluate(f.batch);
  f.second = f.estimator->evaluate(f.batch);
  f.networkSeed = at::make_generator<at::CPUGeneratorImpl>(11);
  f.readingDraws = readingGenerator(f.batch.x, f.batch.y, c10::Device(c10::kCPU));
  return f;
}

}  // namespace milab
