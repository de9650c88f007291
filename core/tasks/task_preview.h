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

}  // namespace milab
