#pragma once
// A user's data as a task: the chosen columns of a table as x, (x',) y. No law behind it, so no truth (NaN) and no
// capability; runs read it through the finite-sample protocol (every row, or `samples` of them), each estimate beside
// its permutation baseline (engine/sample_set.h).
#include <QVector>

#include "data/data_table.h"
#include "tasks/task.h"

namespace milab {

// One variable's columns: picked from the table into doubles, or a block of it read in place (block.data set).
struct DataPart {
  QVector<double> picked;  // row-major, [rows, dim]
  FloatBlock block;
};

struct DataColumns {
  int64_t rows = 0;
  int dimX = 0, dimXp = 0, dimY = 0;
  DataPart x, xp, y;
};

class DataTaskModel final : public TaskModel {
 public:
  explicit DataTaskModel(DataColumns data) : data_(std::move(data)) {}

  int dimX() const override { return data_.dimX; }
  int dimY() const override { return data_.dimY; }
  bool hasSubview() const override { return data_.dimXp > 0; }
  double totalMi() const override { return std::numeric_limits<double>::quiet_NaN(); }
  QList<NamedValue> truths() const override { return {}; }
  int64_t rows() const override { return data_.rows; }
  std::unique_ptr<TaskSampler> sampler(c10::Device device) const override;

 private:
  DataColumns data_;
};

}  // namespace milab
