#include "random/philox_normals.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <mutex>

#include "nn/device_route.h"

namespace milab {

at::Tensor philoxNormals(at::IntArrayRef shape, at::Generator& gen) {
  const at::TensorOptions options = at::TensorOptions().dtype(at::kFloat).device(gen.device());
  if (!gen.device().is_cpu() || cpuTakesDeviceRoute()) return at::randn(shape, gen, options);
  uint64_t key = 0;
  {
    std::lock_guard<std::mutex> lock(gen.mutex());
    key = at::check_generator<at::CPUGeneratorImpl>(gen)->random64();
  }
  at::Tensor out = at::empty(shape, options);
  fillPhiloxNormals(out.data_ptr<float>(), out.numel(), key);
  return out;
}

}  // namespace milab
