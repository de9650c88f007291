#include "method/step_reading.h"

#include <ATen/ATen.h>

#include <stdexcept>

namespace milab {

StepReading::StepReading(double number) { terms_.push_back({at::Tensor(), number, false}); }

StepReading::StepReading(const at::Tensor& value) {
  if (value.numel() != 1) throw std::invalid_argument("a step reading is one number, got a tensor of several");
  // 0-dim, so that many stack into one tensor; detached, so that holding it keeps no graph alive. A value that is
  // both already (a written-out step's objective) is held as it is: two operations fewer in every step.
  const at::Tensor detached = value.requires_grad() ? value.detach() : value;
  terms_.push_back({detached.dim() == 0 ? detached : detached.reshape({}), 0.0, false});
}

StepReading StepReading::operator-() const {
  StepReading r = *this;
  for (Term& t : r.terms_) t.negated = !t.negated;  // -(a + b) = -a - b, exactly: rounding is symmetric
  return r;
}

StepReading operator+(StepReading a, const StepReading& b) {
  a.terms_.insert(a.terms_.end(), b.terms_.begin(), b.terms_.end());
  return a;
}

double StepReading::sum(const double* tensorValues) const {
  double total = 0;
  bool first = true;
  for (const Term& t : terms_) {
    const double v = t.value.defined() ? *tensorValues++ : t.number;
    const double signedV = t.negated ? -v : v;
    total = first ? signedV : total + signedV;  // the first term as is: -0.0 stays -0.0, as item() gave it
    first = false;
  }
  return total;
}

double StepReading::value() const {
  std::vector<double> values;
  for (const Term& t : terms_)
    if (t.value.defined()) values.push_back(t.value.item<double>());
  return sum(values.data());
}

}  // namespace milab
