#include "tasks/cpu_draw_generator.h"

#include <ATen/CPUGeneratorImpl.h>

namespace milab {

at::Generator& CpuDrawGenerator::of(at::Generator& gen) const {
  if (gen.device().is_cpu()) return gen;
  std::call_once(seeded_, [&] { cpu_ = at::make_generator<at::CPUGeneratorImpl>(gen.current_seed()); });
  return cpu_;
}

}  // namespace milab
