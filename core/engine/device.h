#pragma once
#include <QString>

namespace milab {

// "auto" -> "cuda" when LibTorch sees a GPU, else "cpu". Returns "" and sets *resolved, or an error line
// such as "device: cuda requested but not available ...".
QString resolveDevice(const QString& request, QString* resolved);

// Call once at start-up, before any torch work: LibTorch starts with one intra-op thread on Debian.
void initTorchThreads(int threads = 0);

}  // namespace milab
