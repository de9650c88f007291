#include "cli/progress_bar.h"

#include <unistd.h>

#include <QByteArray>

#include "cli/display_units_choice.h"

namespace milab {

namespace {
constexpr qint64 kPlainLineEveryMs = 30000;
}

ProgressBar::ProgressBar(std::FILE* stream) : stream_(stream), terminal_(isatty(fileno(stream)) == 1) {}

void ProgressBar::update(int step, int total, double estimate, double seconds) {
  if (total <= 0) return;
  const double rate = seconds > 0 ? step / seconds : 0.0;
  const Units units = printedUnits();
  estimate = inUnits(estimate, units);
  const QByteArray unit = unitName(units).toUtf8();
  if (!terminal_) {
    if (sinceLine_.isValid() && sinceLine_.elapsed() < kPlainLineEveryMs) return;
    sinceLine_.start();
    std::fprintf(stream_, "milab-cli: step %d/%d, estimate %.3f %s, %.0f steps/s\n", step, total, estimate,
                 unit.constData(), rate);
    std::fflush(stream_);
    return;
  }
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(static_cast<long long>(kWidth) * step / total);
  const QByteArray bar = QByteArray(filled, '#') + QByteArray(kWidth - filled, '.');
  std::fprintf(stream_, "\r[%s] %3d%%  step %d/%d  estimate %.3f %s  %.0f steps/s ", bar.constData(),
               static_cast<int>(100LL * step / total), step, total, estimate, unit.constData(), rate);
  std::fflush(stream_);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (terminal_ && drawn_) std::fputc('\n', stream_);
  drawn_ = false;
}

}  // namespace milab
