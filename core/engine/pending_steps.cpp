#include "engine/pending_steps.h"

#include <ATen/ATen.h>

#include <cmath>

namespace milab {

void PendingSteps::add(int step, StepResult result, double seconds) {
  pending_.push_back({step, std::move(result), seconds});
}

QString PendingSteps::drain(const std::function<void(const StepNumbers&)>& use) {
  std::vector<at::Tensor> tensors;
  const auto readingsOf = [](const StepResult& r) {
    std::vector<const StepReading*> all{&r.estimate, &r.loss};
    for (const StepResult::NamedReading& t : r.terms) all.push_back(&t.reading);
    return all;
  };
  for (const Pending& p : pending_)
    for (const StepReading* r : readingsOf(p.result))
      for (const StepReading::Term& t : r->terms())
        if (t.value.defined()) tensors.push_back(t.value);
  // One copy for all of them (stack promotes to the widest dtype; double on the host holds every float exactly).
  at::Tensor host;
  if (!tensors.empty()) host = at::stack(tensors).to(at::kCPU, at::kDouble).contiguous();
  const double* values = host.defined() ? host.data_ptr<double>() : nullptr;

  const std::vector<Pending> steps = std::move(pending_);
  pending_.clear();
  auto tensorTerms = [](const StepReading& r) {
    int n = 0;
    for (const StepReading::Term& t : r.terms()) n += t.value.defined();
    return n;
  };
  for (const Pending& p : steps) {
    StepNumbers n{p.step, p.result.estimate.sum(values), 0, p.seconds};
    values += tensorTerms(p.result.estimate);
    n.loss = p.result.loss.sum(values);
    values += tensorTerms(p.result.loss);
    for (const StepResult::NamedReading& t : p.result.terms) {
      n.terms << NamedValue{t.name, t.reading.sum(values)};
      values += tensorTerms(t.reading);
    }
    if (!std::isfinite(n.loss) || !std::isfinite(n.estimate))
      return QStringLiteral("training diverged: non-finite %1 at step %2")
          .arg(std::isfinite(n.loss) ? "estimate" : "loss")
          .arg(p.step);
    if (use) use(n);
  }
  return {};
}

}  // namespace milab
