#pragma once
// A class-channel task's keys: their ParamSpecs, their cross-field checks and the one reader of them by key
// (classChannelOptionsFrom). Torch-free.
#include <QList>
#include <QStringList>

#include "params/param_spec.h"

namespace milab {

enum class ClassChannelData { Images, Text };

struct ClassChannelOptions {
  int sources = 10;        // Lee and Rhee's default number of bits
  double mi = kDefaultMi;  // nats
  double crossover = 0;    // resolved: the given one, or the one that carries `mi`
  QStringList classes;     // images: two labels' indices as text ("0", "1"); text: two topics
  int side = 14;           // images: pixels a side after average pooling (28 / 2: a 10-bit row is 1,960 columns)
  int features = 64;       // text: hashed TF-IDF columns per text
  static constexpr int kMaxSources = 32;
  static constexpr const char* kImageClasses = "0,1";  // T-shirt/top and Trouser: Lee and Rhee's two digits' role
  static constexpr const char* kTextTopics = "computers,songs-poems";  // two large topics of unlike words
  static constexpr double kDefaultMi = 2.0;                             // nats, when neither mi nor crossover is given
};

ParamSpecs classChannelSpecs(ClassChannelData data);

// Fills *out from validated keys; "" or one line naming the key and the allowed range. `topics` (text only): the
// corpus's topics, to name a wrong one against.
QString classChannelOptionsFrom(const ParamMap& params, ClassChannelData data, const QStringList& topics,
                                ClassChannelOptions* out);

// The cross-field checks of the task plugin's validate: mi or crossover (not both), mi within what the sources can
// carry, every staircase level too; mi set to a staircase's last level (what the final evaluation reads).
QString checkClassChannelParams(ParamMap* params);

}  // namespace milab
