#pragma once
#include <QString>

namespace milab {

// "auto" -> "cuda" when LibTorch sees a GPU, else "cpu". Returns "" and sets *resolved, or an error line
// such as "device: cuda requested but not available ...".
QString resolveDevice(const QString& request, QString* resolved);

// Call once at start-up, before any torch work: sets LibTorch's intra-op threads (`threads`, else
// $MILAB_THREADS, else 1: see device.cpp for the measurements) and keeps glibc from returning every large
// tensor buffer to the kernel.
void initTorchRuntime(int threads = 0);

}  // namespace milab
