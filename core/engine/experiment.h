#pragma once
// An experiment file: one run, or a grid of runs (the papers' figures, sweeps over K, MI, seeds).
//   { "task": "gaussian3", "dim": 20, "steps": 3000,                 shared by every cell
//     "grid": { "mi": [5, 10], "K": [8, 64, 512], "seed": [1, 2] },  cartesian product
//     "methods": [ { "method": "infonce" },                          one row per entry, merged on top,
//                  { "method": "demi-bo", "protocol": "marginal" } ] so each method keeps its own keys
//   }
// Command-line values override the file; a value with commas ("--K 8,64,512") becomes a grid axis.
#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QVariantList>
#include <QVariantMap>

#include "engine/run_spec.h"

namespace milab {

class MethodRegistry;

struct Experiment {
  QVariantMap base;                          // scalar keys shared by every cell
  QList<QPair<QString, QVariantList>> axes;  // grid axes in file order
  QList<QVariantMap> methods;                // method rows; empty means the base names the method
  bool isGrid() const { return !axes.isEmpty() || methods.size() > 1; }
};

struct GridCell {
  QString name;             // folder-safe, e.g. "demi-bo_protocol-marginal_mi-5_K-64_seed-1"
  QVariantMap coordinates;  // the values that vary: method-row keys and axis keys
  RunSpec spec;             // validated
};

// Reads and checks the file's shape. Returns "" or one line naming the file, the key and what is wrong.
QString readExperiment(const QString& path, Experiment* out);
// The same from the file's contents (`path` only names it in messages): what the fuzz target feeds.
QString parseExperiment(const QByteArray& json, const QString& path, Experiment* out);

// The most cells one grid may have: 20,000 cells of the shortest run are hours on a machine, and validating them
// takes under a second; more is a typo, not a sweep (split it into several files).
constexpr int kMaxCells = 20000;

// Applies command-line values: a scalar replaces the key everywhere (and removes its axis), a comma list
// becomes an axis.
void applyOverrides(const QVariantMap& overrides, Experiment* experiment);

// The items of a flag's comma list ("8,,16" -> 8, "", 16: an empty item is kept, so that checkListItems names it);
// a text of nothing but commas gives no items.
QVariantList listItems(const QString& text);
// A list of values for `key` (a grid axis, a --key a,b,c sweep, hashing's bits): "" or why it cannot run: no value,
// an empty item, or a value given twice (compared as cell names write them).
QString checkListItems(const QString& key, const QVariantList& values);
// Every cell, validated before anything runs. Returns "" or the first cell's error line, field first.
QString expandExperiment(const Experiment& experiment, const MethodRegistry& registry, QList<GridCell>* cells);

}  // namespace milab
