#pragma once
// Where and how LibTorch computes: the device a run asks for resolved against what the machine has, the
// process-wide start-up, and the per-thread set-up every training thread makes first.
#include <QString>

namespace milab {

// The most intra-op threads MILAB_THREADS may ask for (a larger value is read as this many).
inline constexpr int kMaxLabThreads = 256;

// "auto" -> "cuda" when LibTorch sees a GPU, else "cpu". Returns "" and sets *resolved, or an error line
// such as "device: cuda requested but not available ...".
QString resolveDevice(const QString& request, QString* resolved);

// Call once at start-up, before any torch work: sets LibTorch's intra-op threads (`threads`, else
// $MILAB_THREADS, else 1: see device.cpp for the measurements) and keeps glibc from returning every large
// tensor buffer to the kernel.
void initTorchRuntime(int threads = 0);

// Call first in every thread that runs LibTorch work (a run's worker, a background job, a test's own thread): gives
// it the lab's intra-op thread count, so a seed computes the same digits whatever the machine's core count, its
// affinity (taskset, mpirun's binding) or OMP_NUM_THREADS. Only MILAB_THREADS changes the count, and with it the
// last digits (a sum split over more threads adds in another order). It also flushes denormal floats to zero
// (device.cpp says why).
void configureThisThread();

}  // namespace milab
