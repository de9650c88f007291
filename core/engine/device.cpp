#include "engine/device.h"

#include <ATen/Parallel.h>
#include <torch/cuda.h>

#include <QThread>

namespace milab {

QString resolveDevice(const QString& request, QString* resolved) {
  const bool cuda = torch::cuda::is_available();
  if (request == "cuda" && !cuda)
    return QStringLiteral("device: cuda requested but not available (CPU-only LibTorch or no visible GPU); "
                          "use auto or cpu");
  if (request != "auto" && request != "cpu" && request != "cuda")
    return QStringLiteral("device: must be one of auto|cpu|cuda, got '%1'").arg(request);
  *resolved = request == "auto" ? (cuda ? "cuda" : "cpu") : request;
  return {};
}

void initTorchThreads(int threads) {
  at::set_num_threads(threads > 0 ? threads : std::max(1, QThread::idealThreadCount()));
}

}  // namespace milab
