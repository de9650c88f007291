#pragma once
// A run's progress on stderr. On a terminal: a one-line bar redrawn in place with '\r'. Elsewhere (a log file, a
// batch scheduler's output, a pipe): a plain line when the first steps are measured, then one every 30 s, so a log
// shows the run is alive without a line per redraw.
#include <QElapsedTimer>
#include <QString>

#include <cstdio>

namespace milab {

class ProgressBar {
 public:
  explicit ProgressBar(std::FILE* stream);
  void update(int step, int total, double estimate, double seconds);
  void finish();  // ends the bar's line

 private:
  std::FILE* stream_;
  bool terminal_;
  bool drawn_ = false;
  QElapsedTimer sinceLine_;  // off a terminal: since the last plain line
};

}  // namespace milab
