#include "data_task_options.h"

namespace milab {

ParamSpecs dataTaskSpecs() {
  const DataTaskOptions d;
  return {
      ParamSpec::text("file", d.file,
                      "the table: CSV (',', ';', tab or spaces; a header line is detected), .npy or .npz"),
      ParamSpec::numberList("x_columns", 0, 1e6, "the columns of x, counted from 0, e.g. 0,1"),
      ParamSpec::numberList("y_columns", 0, 1e6, "the columns of y, counted from 0, e.g. 2,3"),
      ParamSpec::numberList("xp_columns", 0, 1e6, "the columns of a second view x' (optional; as many as x_columns)"),
      ParamSpec::choice("header", {"auto", "yes", "no"},
                        d.header == HeaderMode::Yes  ? "yes"
                        : d.header == HeaderMode::No ? "no"
                                                     : "auto",
                        "whether a CSV's first line names its columns (auto: when a cell of it is not a number)"),
  };
}

DataTaskOptions DataTaskOptions::from(const ParamMap& params) {
  DataTaskOptions o;
  o.file = params.value("file").toString();
  const QString h = params.value("header").toString();
  o.header = h == "yes" ? HeaderMode::Yes : h == "no" ? HeaderMode::No : HeaderMode::Auto;
  o.xColumns = numberListValues(params.value("x_columns"));
  o.yColumns = numberListValues(params.value("y_columns"));
  o.xpColumns = numberListValues(params.value("xp_columns"));
  return o;
}

}  // namespace milab
