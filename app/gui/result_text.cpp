#include "gui/result_text.h"

#include <cmath>

#include <QRegularExpression>

#include "gui/counted.h"
#include "params/param_labels.h"
#include "results/reading_words.h"

namespace milab {

namespace {

// A run's warnings name keys as the runner's flags do ("raise order_prior"); the window's form shows labels ("prior
// order r"), so a key with an underscore (never a plain word of the text) reads as both: "prior order r
// (order_prior)" (issue 79).
QString withFormLabels(const QString& text) {
  static const QRegularExpression key(QStringLiteral("\\b[a-z]+(?:_[a-z]+)+\\b"));
  QString out;
  qsizetype at = 0;
  for (const QRegularExpressionMatch& m : key.globalMatch(text)) {
    const QString label = wordsFor(m.captured()).label;
    out += text.mid(at, m.capturedStart() - at);
    out += label == m.captured() ? m.captured() : QStringLiteral("%1 (%2)").arg(label, m.captured());
    at = m.capturedEnd();
  }
  return out + text.mid(at);
}

}  // namespace

QString resultHtml(const RunSpec& spec, const RunResult& r, const RunResult* oracle, Units units) {
  const auto amount = [units](double nats) { return QString::number(inUnits(nats, units), 'f', 3); };
  // A table has no truth: the permutation baseline (y shuffled) says what no dependence reads as. Image views
  // have neither: their runs are read by their probe (the readings below).
  const QString truth = !std::isnan(r.trueMi)
                            ? QStringLiteral("true %1 = %2")
                                  .arg(r.targetName.toHtmlEscaped(),
                                       truthInWords(r.trueMi, r.trueMiStderr, amount, QStringLiteral("&plusmn;")))
                        : std::isnan(r.baseline) ? QStringLiteral("%1 unknown").arg(r.targetName.toHtmlEscaped())
                                                 : QStringLiteral("%1 unknown &middot; y shuffled %2 &plusmn; %3")
                                                       .arg(r.targetName.toHtmlEscaped(), amount(r.baseline),
                                                            amount(r.baselineStderr));
  const QString spread = !hasEstimate(r) || hasStandardError(r)
                             ? QStringLiteral(" &plusmn; %1 %2").arg(amount(r.stderror), unitName(units))
                             : QStringLiteral(" %1 (one reading, no standard error)").arg(unitName(units));
  QString text = QStringLiteral("<b>%1</b>: estimate %2%3 &middot; %4")
                     .arg(statusName(r.status))
                     .arg(amount(r.estimate))
                     .arg(spread, truth);
  for (const Ceiling& c : r.ceilings) text += QStringLiteral(" &middot; %1 = %2").arg(c.name, amount(c.value));
  if (oracle)
    text += QStringLiteral(" &middot; oracle critic %1 &plusmn; %2")
                .arg(amount(oracle->estimate), amount(oracle->stderror));
  text += readingsInWords(r.readings, true, units);  // the test of independence; a learned representation's probe
  if (!r.embedding.isEmpty())
    text += QStringLiteral("<br>the Embedding tab: its test images' features on two axes, and nearest neighbours");
  // The terms as the method reports them: nats, or not an amount of information at all (a probe's accuracy).
  if (units != Units::Nats && !r.terms.isEmpty()) text += QStringLiteral("<br>the method's terms, as it reports them (nats):");
  for (const NamedValue& t : r.terms)
    text += QStringLiteral("<br>%1 = %2").arg(t.name.toHtmlEscaped()).arg(t.value, 0, 'f', 3);
  if (r.stepsDone == 0 && r.fromEvaluation)  // KSG: nothing trained, only its sample sets read
    text += (spec.finiteSamples()
                 ? QStringLiteral("<br>no training; the %1 samples read at once in %2 s on %3").arg(spec.samples)
                 : QStringLiteral("<br>no training; %1 sample sets read in %2 s on %3").arg(spec.evalBatches))
                .arg(r.seconds, 0, 'f', 1)
                .arg(r.device);
  else
    text += QStringLiteral("<br>%1 steps in %2 s on %3").arg(r.stepsDone).arg(r.seconds, 0, 'f', 1).arg(r.device);
  // A failed run's reason is its error, in red; a finished or stopped run's says how it ended (early stopping, which
  // reading was reported, where it was stopped), information in the text's own colour (issue 79).
  if (!r.reason.isEmpty())
    text += r.status == RunStatus::Failed
                ? QStringLiteral("<br><span style='color:#c0392b'>%1</span>").arg(r.reason.toHtmlEscaped())
                : QStringLiteral("<br>%1").arg(r.reason.toHtmlEscaped());
  if (!r.warning.isEmpty())
    text += QStringLiteral("<br><span style='color:#b9770e'><b>warning</b>: %1</span>")
                .arg(withFormLabels(r.warning).toHtmlEscaped());
  for (const RunFlag& f : r.flags)  // the run's diagnostics, each with what it means here
    text += QStringLiteral("<br><span style='color:#b9770e'><b>flag %1</b>: %2</span>")
                .arg(f.name.toHtmlEscaped(), withFormLabels(f.reason).toHtmlEscaped());
  return text;
}

QString setPlaceHtml(int runs, int index, const QString& label) {
  return QStringLiteral("The set holds %1 (the table below; click a row for its result); %2 %3:<br>")
      .arg(counted(runs, "run"))
      .arg(index == runs - 1 ? QStringLiteral("the last,") : QStringLiteral("row %1,").arg(index + 1))
      .arg(label.toHtmlEscaped());
}

}  // namespace milab
