#include "results/run_message.h"

#include <QDataStream>
#include <QIODevice>

namespace milab {

namespace {
constexpr quint32 kResultMagic = 0x6d6c7232;  // "mlr2"
constexpr quint32 kCellMagic = 0x6d6c6331;    // "mlc1"

void prepare(QDataStream& s) {
  s.setVersion(QDataStream::Qt_6_0);
  s.setFloatingPointPrecision(QDataStream::DoublePrecision);  // doubles travel as their 64 bits
}
}  // namespace

// In milab itself, not an unnamed namespace: QList<T>'s stream operators find these by argument-dependent lookup.
static QDataStream& operator<<(QDataStream& s, const NamedValue& v) { return s << v.name << v.value; }
static QDataStream& operator>>(QDataStream& s, NamedValue& v) { return s >> v.name >> v.value; }
static QDataStream& operator<<(QDataStream& s, const RunFlag& f) { return s << f.name << f.reason; }
static QDataStream& operator>>(QDataStream& s, RunFlag& f) { return s >> f.name >> f.reason; }
static QDataStream& operator<<(QDataStream& s, const LevelResult& l) {
  return s << l.mi << l.target << qint32(l.steps) << l.mean << l.bias << l.variance << l.mse;
}
static QDataStream& operator>>(QDataStream& s, LevelResult& l) {
  qint32 steps = 0;
  s >> l.mi >> l.target >> steps >> l.mean >> l.bias >> l.variance >> l.mse;
  l.steps = steps;
  return s;
}
static QDataStream& operator<<(QDataStream& s, const CurvePoint& p) {
  return s << qint32(p.step) << p.estimate << p.loss << p.seconds << p.heldOut << p.probe << p.terms;
}
static QDataStream& operator>>(QDataStream& s, CurvePoint& p) {
  qint32 step = 0;
  s >> step >> p.estimate >> p.loss >> p.seconds >> p.heldOut >> p.probe >> p.terms;
  p.step = step;
  return s;
}

QByteArray packRunResult(int index, const RunResult& r, const QVector<CurvePoint>& curve) {
  QByteArray bytes;
  QDataStream s(&bytes, QIODevice::WriteOnly);
  prepare(s);
  s << kResultMagic << qint32(index) << qint32(r.status) << r.reason << r.estimate << r.stderror << r.fromEvaluation
    << r.terms << r.truths << r.trueMi << r.trueMiStderr << r.targetName << r.ceilings << r.upperBound << r.warning
    << r.seconds << qint32(r.stepsDone) << r.device << r.levels << qint32(r.stepsPerLevel) << r.baseline << r.baselineStderr
    << r.readings << r.flags << curve;
  return bytes;
}

bool unpackRunResult(const QByteArray& bytes, int* index, RunResult* result, QVector<CurvePoint>* curve) {
  QDataStream s(bytes);
  prepare(s);
  quint32 magic = 0;
  qint32 i = -1, status = 0, stepsDone = 0, stepsPerLevel = 0;
  RunResult r;
  QVector<CurvePoint> c;
  s >> magic;
  if (magic != kResultMagic) return false;
  s >> i >> status >> r.reason >> r.estimate >> r.stderror >> r.fromEvaluation >> r.terms >> r.truths >> r.trueMi >>
      r.trueMiStderr >> r.targetName >> r.ceilings >> r.upperBound >> r.warning >> r.seconds >> stepsDone >> r.device >> r.levels >>
      stepsPerLevel >> r.baseline >> r.baselineStderr >> r.readings >> r.flags >> c;
  if (s.status() != QDataStream::Ok || !s.atEnd() || status < int(RunStatus::Pending) ||
      status > int(RunStatus::Failed) || i < 0)
    return false;
  *index = i;
  r.status = RunStatus(status);
  r.stepsDone = stepsDone;
  r.stepsPerLevel = stepsPerLevel;
  *result = r;
  *curve = c;
  return true;
}

QByteArray packCell(int index, const QVariantMap& flatSpec) {
  QByteArray bytes;
  QDataStream s(&bytes, QIODevice::WriteOnly);
  prepare(s);
  s << kCellMagic << qint32(index) << flatSpec;
  return bytes;
}

bool unpackCell(const QByteArray& bytes, int* index, QVariantMap* flatSpec) {
  QDataStream s(bytes);
  prepare(s);
  quint32 magic = 0;
  qint32 i = -1;
  QVariantMap flat;
  s >> magic;
  if (magic != kCellMagic) return false;
  s >> i >> flat;
  if (s.status() != QDataStream::Ok || !s.atEnd() || i < 0) return false;
  *index = i;
  *flatSpec = flat;
  return true;
}

}  // namespace milab
