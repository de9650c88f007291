#pragma once
// A held-out reading's own randomness. An estimator draws whatever its reading needs (MINE's permutation of the
// held-out ys, DEMI's negatives, a flow's or a denoiser's noise) from the generators it was built with, which are
// also the ones its training batches come from (on a CPU the noise and the estimator's generator are one object):
// a reading taken every eval_every steps would then move every later minibatch. Around a reading this puts each
// generator on a state of the reading's own stream (engine/seed_streams' readingSeed) and back on the training
// state after it, so a run trains the same networks however often it is read, on every device. Torch header:
// engine translation units only.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <utility>

namespace milab {

class ReadingStream {
 public:
  // cpu: the estimator's generator; noise: the device's batch generator (the same object on a CPU); seed: the run's.
  ReadingStream(at::Generator cpu, at::Generator noise, int seed);

  // read() with the generators on the reading stream, then the training states back (also when read throws).
  template <class Read>
  auto around(Read&& read) {
    Swap swap(*this);
    return std::forward<Read>(read)();
  }

 private:
  struct Swap {
    explicit Swap(ReadingStream& s) : stream(s) { stream.exchange(); }
    ~Swap() { stream.exchange(); }
    ReadingStream& stream;
  };
  // Each generator takes the state held here and leaves its own: the training state while a reading runs, the
  // reading's between readings.
  void exchange();

  at::Generator cpu_, noise_;  // noise_ undefined when it is cpu_
  at::Tensor cpuState_, noiseState_;
};

}  // namespace milab
