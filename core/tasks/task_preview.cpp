#include "tasks/task_preview.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>

#include "tasks/task.h"
#include "tasks/task_sampler.h"

namespace milab {

SamplePreview previewSamples(const TaskModel& task, int n, std::uint64_t seed, int xColumn, int yColumn) {
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  const Batch batch = task.sampler(c10::Device(c10::kCPU))->sampleJoint(n, gen);
  const at::Tensor x = batch.x.select(1, xColumn).to(at::kDouble).contiguous();
  const at::Tensor y = batch.y.select(1, yColumn).to(at::kDouble).contiguous();
  SamplePreview out;
  out.x = QVector<double>(x.data_ptr<double>(), x.data_ptr<double>() + n);
  out.y = QVector<double>(y.data_ptr<double>(), y.data_ptr<double>() + n);
  return out;
}

ViewsPreview previewViews(const TaskModel& task, int n, std::uint64_t seed) {
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  const Batch batch = task.sampler(c10::Device(c10::kCPU))->sampleJoint(n, gen);
  const auto pixels = [](const at::Tensor& t) {
    const at::Tensor c = t.to(at::kFloat).contiguous();
    return QVector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
  };
  ViewsPreview out;
  out.n = n;
  out.side = int(std::lround(std::sqrt(double(batch.x.size(1)))));
  out.x = pixels(batch.x);
  out.xp = pixels(batch.xp);
  out.y = pixels(batch.y);
  return out;
}

}  // namespace milab
