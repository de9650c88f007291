#pragma once
// A comparison set: several runs on one task, built from one configuration by quick fills (more methods; a
// list of values for any parameter, "K=32,128,512; seed=1,2,3"), labelled by what differs between them, and
// saved as the experiment file the runner already reads (shared keys at the top, one "methods" row per run).
// Torch-free.
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include "engine/run_spec.h"

namespace milab {

class MethodRegistry;

// The runs of a comparison: `base` (validated) for its own method and for each of `moreMethods` (which take the
// base's method parameters they also declare, their defaults otherwise), crossed with every list in `vary`
// ("key=v1,v2,...; key2=..."; a key applies to the runs whose task, run settings or method declare it).
// Returns "" or one line naming the field ("vary: ..." or the failing run's own field).
QString expandRunSet(const RunSpec& base, const QStringList& moreMethods, const QString& vary,
                     const MethodRegistry& registry, QList<RunSpec>* out);

// The keys (besides "method") whose values differ between the runs that have them, sorted.
QStringList differingKeys(const QList<RunSpec>& specs);
QStringList differingKeys(const QList<QVariantMap>& flatSpecs);  // the same over experiments in their flat form
// Per method id, the method settings in which that method's own runs differ (smile at tau 1 and 5): what tells
// them apart, unlike the settings two methods differ in only by their own defaults (infonce's lr beside gan-dime's).
QMap<QString, QStringList> methodKeysDifferingWithin(const QList<RunSpec>& specs);
// The keys that label each method's runs in a figure: those, and the settings no method declares (the task's, the
// run's) that differ among all the runs; in differingKeys' order.
QMap<QString, QStringList> labelKeysByMethod(const QList<RunSpec>& specs);
// The keys of `keys` a run reads: one whose method trains nothing (KSG) reads no training setting (steps,
// eval_every, early_stopping), so a set that varies steps does not label its KSG rows by them.
QStringList keysTheRunReads(const QStringList& keys, bool methodTrains);
// The same for a run known by its flat spec (the history's rows): also without keys it leaves empty (no
// mi_schedule) and, without a staircase, the staircase's own (steps_per_level, level_tail).
QStringList keysTheRunReads(const QStringList& keys, const QVariantMap& flat);
// "lr=0.0001": a key as its flag spells it (--lr) and its value as a reader writes it, for labels.
QString keyValueText(const QString& key, const QVariant& value);
// "infonce K=128 seed=2": the method and its values of `keys`.
QString runLabel(const RunSpec& spec, const QStringList& keys);
// The same label without the seed: runs that differ only by seed share it and are drawn as one mean with a band.
QString seedGroupLabel(const RunSpec& spec, const QStringList& keys);

// The set as an experiment file: every key shared by all runs at the top level, one "methods" row per run with
// the rest (a single run is a flat file). `milab-cli run FILE` then runs the same specs.
QJsonObject runSetExperiment(const QList<RunSpec>& specs);

}  // namespace milab
