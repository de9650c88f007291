#include "dialogue_task_model.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <stdexcept>

#include "tasks/cpu_draw_generator.h"
#include "tasks/task_sampler.h"

namespace milab {

namespace {

using dialogue::DialogueLaw;

// Draws on the CPU (the law's tensors live there) and hands the run float32 on its device, with the generator
// tasks/cpu_draw_generator.h gives.
class DialogueSampler final : public TaskSampler {
 public:
  DialogueSampler(std::shared_ptr<const DialogueLaw> law, c10::Device device)
      : TaskSampler(device), law_(std::move(law)) {}

  int dimX() const override { return context() * length(); }
  int dimY() const override { return length(); }
  bool hasSubview() const override { return true; }

  Batch sampleJoint(int64_t n, at::Generator& gen) const override {
    const at::Tensor d = law_->sampleDialogues(n, cpu_.of(gen));
    const int k = context();
    const at::Tensor x = d.narrow(1, 0, k).reshape({n, -1});
    const at::Tensor padding = at::full({n, (k - 1) * length()}, law_->setting().vocabulary, x.options());
    return {onDevice(x), onDevice(at::cat({padding, d.select(1, k - 1)}, 1)), onDevice(d.select(1, k))};
  }

  at::Tensor sampleYGivenXp(const at::Tensor& xp, int64_t perRow, at::Generator& gen) const override {
    const at::Tensor law = law_->nextStateGivenLast(lastUtterance(xp));
    return onDevice(law_->samplePredictive(law, perRow, cpu_.of(gen)));
  }

  DiagonalGaussian yGivenXp(const at::Tensor&) const override {
    throw std::logic_error("the dialogue task's p(y|x') is a law over token sequences, not a Gaussian");
  }

  at::Tensor pmi(const at::Tensor& x, const at::Tensor&, const at::Tensor& y) const override {
    const at::Tensor ids = idsOf(x);
    std::vector<int64_t> shape = ids.sizes().vec();
    shape.back() = context();
    shape.push_back(length());
    const at::Tensor given = law_->nextStateGivenContext(ids.reshape(shape));
    return logRatio(given, y, x.device());
  }

  at::Tensor subviewPmi(const at::Tensor& xp, const at::Tensor& y) const override {
    return logRatio(law_->nextStateGivenLast(lastUtterance(xp)), y, xp.device());
  }

  at::Tensor logMarginalY(const at::Tensor& y) const override {
    return moved(law_->predictiveLogProbability(law_->nextStatePrior(), idsOf(y)), y.device());
  }

 private:
  int context() const { return law_->setting().context; }
  int length() const { return law_->setting().length; }

  // A move names a device only where there is one to make: a CPU run's steps read nothing on the host
  // (test_host_reads).
  static at::Tensor onCpu(const at::Tensor& t) { return t.device().is_cpu() ? t : t.to(at::kCPU); }
  static at::Tensor moved(const at::Tensor& t, c10::Device device) { return device.is_cpu() ? t : t.to(device); }
  static at::Tensor idsOf(const at::Tensor& columns) { return onCpu(columns.detach()).round().to(at::kLong); }
  at::Tensor lastUtterance(const at::Tensor& xp) const { return idsOf(xp).narrow(-1, xp.size(-1) - length(), length()); }
  at::Tensor onDevice(const at::Tensor& ids) const { return moved(ids.to(at::kFloat), device()); }
  // log p(y | the hidden-state law) - log p(y), broadcasting the law's leading axes against y's.
  at::Tensor logRatio(const at::Tensor& stateLaw, const at::Tensor& y, c10::Device device) const {
    const at::Tensor ids = idsOf(y);
    return moved(law_->predictiveLogProbability(stateLaw, ids) -
                     law_->predictiveLogProbability(law_->nextStatePrior(), ids),
                 device);
  }

  std::shared_ptr<const DialogueLaw> law_;
  CpuDrawGenerator cpu_;
};

}  // namespace

DialogueTaskModel::DialogueTaskModel(const dialogue::DialogueSetting& setting)
    : law_(std::make_shared<const DialogueLaw>(setting)), truths_(dialogue::cachedTruths(*law_)) {}

int DialogueTaskModel::dimX() const { return law_->setting().context * law_->setting().length; }

QList<NamedValue> DialogueTaskModel::truths() const {
  // x' is a part of x, so I(x, x'; y) = I(x; y).
  return {{"I(x,x';y)", truths_.total.mean},
          {"I(x';y)", truths_.subview.mean},
          {"I(x;y|x')", truths_.conditional.mean},
          {"I(x;y)", truths_.total.mean}};
}

double DialogueTaskModel::largestMi() const {
  return std::log(double(law_->setting().topics) * double(law_->setting().states));
}

ItemsPreview DialogueTaskModel::previewItems(int rows, int, std::uint64_t seed) const {
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  const at::Tensor d = law_->sampleDialogues(rows, gen);
  const int k = law_->setting().context;
  ItemsPreview p;
  p.rows = rows;
  p.items = 1;
  for (int r = 0; r < rows; ++r) {
    const QStringList lines = dialogue::dialogueAsText(d[r]);
    p.xTexts << lines.mid(0, k).join(QStringLiteral(" / "));
    p.yTexts << lines.value(k);
  }
  return p;
}

std::unique_ptr<TaskSampler> DialogueTaskModel::sampler(c10::Device device) const {
  return std::make_unique<DialogueSampler>(law_, device);
}

}  // namespace milab
