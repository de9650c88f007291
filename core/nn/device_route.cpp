#include "nn/device_route.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace milab {

namespace {
std::atomic<bool>& route() {
  static std::atomic<bool> on{[] {
    const char* value = std::getenv("MILAB_DEVICE_ROUTE");
    return value && std::strcmp(value, "1") == 0;
  }()};
  return on;
}
}  // namespace

bool cpuTakesDeviceRoute() { return route().load(std::memory_order_relaxed); }

void setCpuTakesDeviceRoute(bool on) { route().store(on, std::memory_order_relaxed); }

}  // namespace milab
