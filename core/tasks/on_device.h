#pragma once
// A tensor placed on a device without naming the device when it is there already. A training step must never
// call .to(device): on a GPU, that call on a tensor made on the host is a host-to-device copy every step, and a
// CPU-only machine cannot see the copy. test_host_reads counts every call that names a device inside a step, so
// code that draws where the run's generator lives (the device) and only moves what came from elsewhere (a sample
// set drawn once with a CPU generator) goes through here. Torch header.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

namespace milab {

inline at::Tensor onDevice(const at::Tensor& t, c10::Device device) { return t.device() == device ? t : t.to(device); }

}  // namespace milab
