#pragma once
// A number a training step reports (its estimate or its loss), left where it was computed. Reading it on the host
// with .item() after every step would make a GPU wait for each step to finish before the next is queued; instead a
// step returns its readings as tensors and the engine copies many steps' readings to the host at once
// (engine/step_readings.h).
// A reading is a signed sum of terms (one-element tensors, or numbers already on the host) added on the host in
// double precision, left to right: exactly what `a.item<double>() + b.item<double>()` gave, so a CPU run keeps every
// digit of its numbers. `a + (b + c)` is added as `(a + b) + c`: where that last digit matters, make the right side
// one tensor first.
// Torch header: include it only from torch translation units.
#include <ATen/core/Tensor.h>

#include <vector>

namespace milab {

class StepReading {
 public:
  struct Term {
    at::Tensor value;   // one element, detached (holding it keeps no autograd graph alive); undefined: `number`
    double number = 0;  // a term already on the host
    bool negated = false;
  };

  StepReading() = default;  // no terms: 0
  // A number already on the host: a fixed reading, or a test's.
  StepReading(double number);  // NOLINT(google-explicit-constructor): readings compose like numbers
  // One element of any floating dtype, on any device.
  StepReading(const at::Tensor& value);  // NOLINT(google-explicit-constructor)

  StepReading operator-() const;
  friend StepReading operator+(StepReading a, const StepReading& b);
  friend StepReading operator-(StepReading a, const StepReading& b) { return std::move(a) + (-b); }

  const std::vector<Term>& terms() const { return terms_; }
  // The reading, given the host value of each tensor term in order (`tensorValues` skips the host numbers).
  double sum(const double* tensorValues) const;
  // Copies the tensor terms to the host now, one synchronisation each: for tests and callers outside a step loop.
  double value() const;

 private:
  std::vector<Term> terms_;
};

}  // namespace milab
