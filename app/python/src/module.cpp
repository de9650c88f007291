// milab's Python module, the binding half (the Python half is milab/__init__.py): the lab's catalog, its rows, and
// its runs, the GIL released while they train. Values cross as JSON text or NumPy arrays; the Python layer shapes
// them and raises the runner's error lines as ValueError.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <QCoreApplication>
#include <QJsonDocument>
#include <QThread>
#include <cmath>
#include <stdexcept>

#include "data/held_tables.h"
#include "lab_catalog.h"
#include "lab_runs.h"
#include "results/curve_terms.h"

namespace py = pybind11;
using namespace milab;

namespace {

// The runner's one line, raised as ValueError by the Python layer (it maps this type).
struct LabError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(const QString& err) {
  if (!err.isEmpty()) throw LabError(err.toStdString());
}

QString text(const std::string& s) { return QString::fromStdString(s); }

std::string jsonText(const QJsonArray& a) { return QJsonDocument(a).toJson(QJsonDocument::Compact).toStdString(); }
std::string jsonText(const QJsonObject& o) { return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString(); }

QVariantMap keysFromJson(const std::string& json) {
  const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json));
  if (!doc.isObject()) throw LabError("keys: must be a mapping of names to values");
  return doc.object().toVariantMap();
}

// The Qt side the core needs: an application object (the run history's SQLite driver is a Qt plugin, and the
// history's folder is named by the application), and the plugins' folder when the user has not named one.
void startLab(const std::string& pluginDirs) {
  if (!QCoreApplication::instance()) {  // a Qt program embedding Python (PyQt's) keeps its own, and its name
    static int argc = 1;
    static char name[] = "milab";
    static char* argv[] = {name, nullptr};
    new QCoreApplication(argc, argv);               // lives as long as the interpreter
    QCoreApplication::setApplicationName("milab");  // the history's folder: ~/.local/share/milab, as the runner's
  }
  if (qEnvironmentVariableIsEmpty("MILAB_PLUGIN_PATH") && !pluginDirs.empty())
    qputenv("MILAB_PLUGIN_PATH", QByteArray::fromStdString(pluginDirs));
}

py::tuple sample(const std::string& task, const std::string& keys, qint64 n, int seed) {
  SampleTable t;
  check(sampleRows(text(task), keysFromJson(keys), n, seed, &t));
  const qint64 columns = t.dimX + t.dimXp + t.dimY;
  py::array_t<float> rows({py::ssize_t(t.rows), py::ssize_t(columns)});
  std::copy(t.values.cbegin(), t.values.cend(), rows.mutable_data());
  return py::make_tuple(rows, t.dimX, t.dimXp, t.dimY);
}

std::string truths(const std::string& task, const std::string& keys, int seed) {
  QJsonArray out;
  check(taskTruths(text(task), keysFromJson(keys), seed, &out));
  return jsonText(out);
}

// Holds a checked (rows, columns) table of doubles; returns the `file` value task data reads it by.
std::string holdRows(py::array_t<double, py::array::c_style | py::array::forcecast> rows) {
  if (rows.ndim() != 2) throw LabError("the table must be 2-d");
  auto table = std::make_shared<DataTable>();
  table->rows = rows.shape(0);
  table->columns = rows.shape(1);
  table->values = QVector<double>(rows.data(), rows.data() + rows.size());
  return holdTable(std::move(table)).toStdString();
}

py::dict curveColumns(const QVector<CurvePoint>& curve) {
  const auto column = [&](auto value) {
    py::array_t<double> out(curve.size());
    double* d = out.mutable_data();
    for (qsizetype i = 0; i < curve.size(); ++i) d[i] = value(curve[i]);
    return out;
  };
  py::array_t<int64_t> steps(curve.size());
  for (qsizetype i = 0; i < curve.size(); ++i) steps.mutable_data()[i] = curve[i].step;
  py::dict out;
  out["step"] = steps;
  out["estimate"] = column([](const CurvePoint& p) { return p.estimate; });
  out["loss"] = column([](const CurvePoint& p) { return p.loss; });
  out["seconds"] = column([](const CurvePoint& p) { return p.seconds; });
  const auto any = [&](double CurvePoint::*field) {
    return std::any_of(curve.begin(), curve.end(), [&](const CurvePoint& p) { return !std::isnan(p.*field); });
  };
  if (any(&CurvePoint::heldOut)) out["held_out"] = column([](const CurvePoint& p) { return p.heldOut; });
  if (any(&CurvePoint::probe)) out["probe_accuracy"] = column([](const CurvePoint& p) { return p.probe; });
  for (const QString& name : curveTermNames(curve))
    out[py::str(name.toStdString())] = column([&](const CurvePoint& p) { return termValue(p, name); });
  return out;
}

// Runs the experiment's cells to their end. Between polls the GIL is released; at each poll Python's signals are
// checked (Ctrl-C: every run is cancelled, what they measured is written, then KeyboardInterrupt is raised) and
// `progress(steps_done, steps_total, cells_ended, estimate)` is called when given.
py::list runCells(const std::string& experiment, const std::string& source, const std::string& out, bool record,
                  const std::string& history, int jobs, bool single, const py::object& progress) {
  QList<GridCell> cells;
  check(moduleCells(QByteArray::fromStdString(experiment), text(source), &cells));
  if (single && cells.size() != 1)
    throw LabError(QStringLiteral("the keys make a grid of %1 cells; estimate reads one (milab.run runs grids)")
                       .arg(cells.size())
                       .toStdString());
  const ModuleRunOptions options{text(out), record, text(history), jobs};
  check(checkRunOptions(options));
  const bool grid = cells.size() > 1;
  ModuleRuns runs(cells, options, grid);
  check(runs.claimOut());
  runs.start();
  std::unique_ptr<py::error_already_set> stopped;  // a signal or the progress callback's exception
  for (;;) {
    bool done;
    {
      py::gil_scoped_release release;
      done = runs.poll();
      if (!done) QThread::msleep(50);
    }
    if (done) break;
    if (stopped) continue;  // cancelled: the runs end, their files are written, then the error is raised
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      if (!progress.is_none()) progress(runs.stepsDone(), runs.stepsTotal(), runs.cellsEnded(), runs.latestEstimate());
    } catch (py::error_already_set& e) {
      stopped = std::make_unique<py::error_already_set>(std::move(e));
      runs.cancelAll();
    }
  }
  if (stopped) throw std::move(*stopped);
  py::list results;
  for (const CellOutcome& o : runs.outcomes()) {
    py::list warnings;
    for (const QString& w : o.warnings) warnings.append(w.toStdString());
    results.append(py::make_tuple(o.name.toStdString(), jsonText(o.summary), curveColumns(o.curve), warnings));
  }
  return results;
}

}  // namespace

PYBIND11_MODULE(_milab, m) {
  m.doc() = "milab's binding: use the milab package, which wraps it.";
  py::register_exception<LabError>(m, "LabError", PyExc_ValueError);
  m.def("start", &startLab, py::arg("plugin_dirs"));
  m.def("version", [] { return std::string(MILAB_VERSION); });
  m.def("tasks", [] { return jsonText(taskList()); });
  m.def("methods", [] { return jsonText(methodList()); });
  m.def("run_keys", [] { return jsonText(runKeyList()); });
  m.def("truths", &truths, py::arg("task"), py::arg("keys"), py::arg("seed"));
  m.def("sample", &sample, py::arg("task"), py::arg("keys"), py::arg("n"), py::arg("seed"));
  m.def("max_sample_values", [] { return kMaxSampleValues; });
  m.def("value_problem", [](double v) { return dataValueProblem(v).toStdString(); });
  m.def("hold_rows", &holdRows, py::arg("rows"));
  m.def("release_rows", [](const std::string& file) { releaseTable(text(file)); });
  m.def("run_cells", &runCells, py::arg("experiment"), py::arg("source"), py::arg("out"), py::arg("record"),
        py::arg("history"), py::arg("jobs"), py::arg("single"), py::arg("progress"));
}
