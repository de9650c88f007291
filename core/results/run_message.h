#pragma once
// A run's spec, and its result with its curve, as bytes and back, losslessly (every double bit for bit): what an
// MPI worker rank sends the rank that writes the files (app/cli/mpi_grid). Qt's QDataStream, versioned.
#include <QByteArray>
#include <QVariantMap>
#include <QVector>

#include "engine/run.h"

namespace milab {

// A cell's result: its index in the grid, the result and the curve.
QByteArray packRunResult(int index, const RunResult& result, const QVector<CurvePoint>& curve);
// False (and nothing changed) when the bytes are not a packed result of this format.
bool unpackRunResult(const QByteArray& bytes, int* index, RunResult* result, QVector<CurvePoint>* curve);

// A cell: its index in the grid and its spec as flat keys (runSpecToFlat), which the worker validates again.
QByteArray packCell(int index, const QVariantMap& flatSpec);
bool unpackCell(const QByteArray& bytes, int* index, QVariantMap* flatSpec);

}  // namespace milab
