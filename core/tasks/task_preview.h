#pragma once
// A few samples of a task, as plain numbers for a picture (the window's task chart): one column of x against one of
// y, drawn on the CPU with a generator of their own. Torch-free header.
#include <QVector>
#include <cstdint>

namespace milab {

class TaskModel;

struct SamplePreview {
  QVector<double> x, y;  // column xColumn of x and yColumn of y, n rows
};

SamplePreview previewSamples(const TaskModel& task, int n, std::uint64_t seed, int xColumn, int yColumn);

// n joint draws of an image task (TaskCapabilities::images): each view's pixels in [0, 1], row-major, image after
// image; side x side pixels each.
struct ViewsPreview {
  int n = 0, side = 0;
  QVector<float> x, xp, y;
};

ViewsPreview previewViews(const TaskModel& task, int n, std::uint64_t seed);

}  // namespace milab
