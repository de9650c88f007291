#pragma once
#include <QString>

#include <cstdio>

namespace milab {

// A one-line progress bar redrawn in place with '\r'; silent unless the stream is a terminal.
class ProgressBar {
 public:
  explicit ProgressBar(std::FILE* stream);
  bool enabled() const { return enabled_; }
  void update(int step, int total, double estimate, double seconds);
  void finish();  // ends the line

 private:
  std::FILE* stream_;
  bool enabled_;
  bool drawn_ = false;
};

}  // namespace milab
