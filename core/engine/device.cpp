#include "engine/device.h"

#include <algorithm>

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <malloc.h>
#include <torch/cuda.h>

#include <atomic>

namespace milab {

namespace {
// The intra-op thread count every thread of the lab computes with; 0 until initTorchRuntime sets it.
std::atomic<int> labThreads{0};

int threadsFromEnvironment() {
  const int fromEnvironment = qEnvironmentVariableIntValue("MILAB_THREADS");
  // Bounded as --jobs is: MILAB_THREADS=100000 started thousands of OpenMP threads per run and never got going
  // (issue 80). 256 is more than any machine here has cores; the count, not the machine, sets the digits.
  return fromEnvironment > 0 ? std::min(fromEnvironment, kMaxLabThreads) : 1;
}
}  // namespace

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

void initTorchRuntime(int threads) {
  // LibTorch's CPU allocator is plain malloc, and training frees and reallocates the same large activations
  // every step. glibc's defaults hand them back to the kernel each time (mmap above 128 KiB, heap trimming),
  // so every step paid page faults and page clearing. Keeping them made DEMI's runs at K=128 and K=512 far shorter,
  // estimates identical, and tcmalloc measured no better (docs/speed.md, "Speed").
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  mallopt(M_TOP_PAD, 256 << 20);
  // One intra-op thread per run by default. Measured in one process on the 2-core CI machine (bench_training;
  // docs/speed.md, "Speed"): with 2 OpenMP threads driven from a run's worker thread, InfoNCE and DEMI at K=128
  // swung widely; with 1 thread they held steady, matching a bare LibTorch loop. Only InfoNCE at K=512 gains from
  // 2 threads, a little. One thread also leaves the other core to the window or to a second run. MILAB_THREADS
  // overrides.
  labThreads.store(threads > 0 ? threads : threadsFromEnvironment());
  configureThisThread();
}

void configureThisThread() {
  // A program that never called initTorchRuntime (a test's own main) gets the same default.
  const int threads = labThreads.load() > 0 ? labThreads.load() : threadsFromEnvironment();
  // OpenMP keeps the thread count per thread: at::set_num_threads sets the calling thread's (omp_set_num_threads),
  // and a thread started later begins from OpenMP's default, every core the process may use (or
  // OMP_NUM_THREADS). OpenBLAS's GEMM reads that count on every call and splits its sums by it, so a run's worker
  // that skipped this computed with 2 threads on a 2-core machine, 1 under `taskset -c 0` or `mpirun` (which
  // binds each rank to a core), and the last digits of every curve differed between them (issue 22).
  at::set_num_threads(threads);
  // Denormal floats flushed to zero (the thread's MXCSR FTZ/DAZ bits; a no-op where the CPU lacks them). A critic
  // that saturates its bound drives softmax shares and their gradients below 1e-38, where every operation on them
  // takes a slow microcode path: InfoNCE at gaussian3 MI 10 K 128 fell to about half its speed once its bound
  // saturated, later than bench_training's steps reach (docs/speed.md, "Speed"). Values that small change nothing a
  // curve prints.
  at::globalContext().setFlushDenormal(true);
}

}  // namespace milab
