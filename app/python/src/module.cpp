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
#include <cstdint>
#include <memory>
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

// Holds checked float32 C-contiguous (rows, d) arrays side by side as one table, each read in place (no copy: the
// table keeps a reference to each array); returns the `file` value task data reads it by.
std::string holdColumns(const py::list& arrays) {
  auto table = std::make_shared<DataTable>();
  for (const py::handle& item : arrays) {
    const auto array = py::reinterpret_borrow<py::array>(item);
    if (!py::isinstance<py::array_t<float>>(array) || array.ndim() != 2 ||
        !(array.flags() & py::array::c_style))
      throw LabError("each part must be a 2-d C-contiguous float32 array (the Python layer converts)");
    if (table->blocks.empty()) table->rows = array.shape(0);
    if (array.shape(0) != table->rows) throw LabError("the parts must have as many rows each");
    // The reference is let go with the GIL held, whichever thread holds the table last (a run's, or this one).
    std::shared_ptr<const void> owner(new py::object(array), [](const void* object) {
      if (!Py_IsInitialized()) return;  // the interpreter is gone: nothing left to release
      const py::gil_scoped_acquire gil;
      delete static_cast<const py::object*>(object);
    });
    table->blocks.push_back({static_cast<const float*>(array.data()), array.shape(1), std::move(owner)});
    table->columns += array.shape(1);
  }
  return holdTable(std::move(table)).toStdString();
}

// The address of a held table's block, for the test that a float32 array is read where it lies (0: none).
std::uintptr_t heldBlockAddress(const std::string& file, std::size_t block) {
  const std::shared_ptr<const DataTable> table = heldTable(text(file));
  if (!table || block >= table->blocks.size()) return 0;
  return reinterpret_cast<std::uintptr_t>(table->blocks[block].data);
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
  // Ended with the GIL released: joining a run's thread must not wait on a thread that waits for the GIL (a run that
  // lets go of an array it read takes the GIL: holdColumns).
  const auto endReleased = [](ModuleRuns* r) {
    const py::gil_scoped_release release;
    delete r;
  };
  const std::unique_ptr<ModuleRuns, decltype(endReleased)> owned(new ModuleRuns(cells, options, grid), endReleased);
  ModuleRuns& runs = *owned;
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
  m.def("hold_columns", &holdColumns, py::arg("arrays"));
  m.def("held_block_address", &heldBlockAddress, py::arg("file"), py::arg("block"));
  m.def("release_rows", [](const std::string& file) { releaseTable(text(file)); });
  m.def("run_cells", &runCells, py::arg("experiment"), py::arg("source"), py::arg("out"), py::arg("record"),
        py::arg("history"), py::arg("jobs"), py::arg("single"), py::arg("progress"));
}
