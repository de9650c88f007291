// The run history's curve blobs, formats 1 and 2 (see curve_blob.h).
#include "results/curve_blob.h"

#include <QDataStream>
#include <QIODevice>
#include <QStringList>
#include <cmath>

#include "results/curve_terms.h"

namespace milab {

namespace {

void setUp(QDataStream* s) {
  s->setByteOrder(QDataStream::LittleEndian);
  s->setFloatingPointPrecision(QDataStream::DoublePrecision);
  s->setVersion(QDataStream::Qt_6_0);  // QString's layout fixed for good, whatever Qt reads it later
}

QVector<CurvePoint> unpackFormat1(QDataStream& in) {
  QVector<CurvePoint> curve;
  while (!in.atEnd()) {
    double step, estimate, loss, seconds;
    in >> step >> estimate >> loss >> seconds;
    if (in.status() != QDataStream::Ok) break;
    curve.push_back({int(step), estimate, loss, seconds});
  }
  return curve;
}

}  // namespace

QByteArray packCurveBlob(const QVector<CurvePoint>& curve) {
  const QStringList terms = curveTermNames(curve);
  QByteArray bytes;
  QDataStream out(&bytes, QIODevice::WriteOnly);
  setUp(&out);
  out << qint32(terms.size());
  for (const QString& name : terms) out << name;
  for (const CurvePoint& p : curve) {
    out << double(p.step) << p.estimate << p.loss << p.seconds << p.heldOut << p.probe;
    for (const QString& name : terms) out << termValue(p, name);
  }
  return bytes;
}

QVector<CurvePoint> unpackCurveBlob(const QByteArray& bytes, int format) {
  QDataStream in(bytes);
  setUp(&in);
  if (format == 1) return unpackFormat1(in);
  QVector<CurvePoint> curve;
  qint32 count = 0;
  in >> count;
  QStringList terms;
  for (qint32 i = 0; i < count && in.status() == QDataStream::Ok; ++i) {
    QString name;
    in >> name;
    terms << name;
  }
  while (in.status() == QDataStream::Ok && !in.atEnd()) {
    double step;
    CurvePoint p;
    in >> step >> p.estimate >> p.loss >> p.seconds >> p.heldOut >> p.probe;
    p.step = int(step);
    for (const QString& name : terms) {
      double v;
      in >> v;
      if (!std::isnan(v)) p.terms << NamedValue{name, v};
    }
    if (in.status() != QDataStream::Ok) break;
    curve.push_back(p);
  }
  return curve;
}

}  // namespace milab
