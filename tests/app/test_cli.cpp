// milab-cli as a user runs it: the methods list, a short run and the validity of every file it writes, and
// each kind of bad input (exit code 2, one line on stderr naming the field, nothing written).
#include <sys/types.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <algorithm>
#include <csignal>

#include "cli_process.h"
#include "cli_zygote.h"
#include "time_limits.h"

namespace {

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  QFile f(dir.filePath(name));
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(name));
  f.write(text);
  return f.fileName();
}

}  // namespace

class TestCli : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void listsMethods() {
    const CliResult r = cli({"methods"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err, QString());
    const QStringList lines = r.out.trimmed().split('\n');
    QVERIFY(lines.size() >= 7);
    for (const QString& line : lines) QCOMPARE(line.count('\t'), 1);  // id<TAB>display name
    QVERIFY(lines.contains("infonce\tInfoNCE"));
    QVERIFY(lines.contains("demi\tDEMI (ground-truth p(y|x'))"));
    QVERIFY(lines.contains("nwj\tNWJ"));
  }

  // The tasks every task plugin offers: the covariate Gaussians first, then the 40 Beyond-Normal ids of bmi's
  // task_list.py (copied here from bmi's source, not from milab's), each with its exact MI.
  void listsTasks() {
    const CliResult r = cli({"tasks"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err, QString());
    const QStringList lines = r.out.trimmed().split('\n');
    QStringList ids;
    for (const QString& line : lines) ids << line.section('\t', 0, 0);
    QCOMPARE(ids.mid(0, 2), (QStringList{"gaussian2", "gaussian3"}));
    const QStringList bmi{
        "1v1-normal-0.75", "normal_cdf-1v1-normal-0.75", "1v1-additive-0.1", "1v1-additive-0.75",
        "1v1-bimodal-0.75", "wiggly-1v1-normal-0.75", "half_cube-1v1-normal-0.75", "student-identity-1-1-1",
        "asinh-student-identity-1-1-1", "swissroll_x-normal_cdf-1v1-normal-0.75", "multinormal-dense-2-2-0.5",
        "multinormal-dense-3-3-0.5", "multinormal-dense-5-5-0.5", "multinormal-dense-25-25-0.5",
        "multinormal-dense-50-50-0.5", "multinormal-sparse-2-2-2-2.0", "multinormal-sparse-3-3-2-2.0",
        "multinormal-sparse-5-5-2-2.0", "multinormal-sparse-25-25-2-2.0", "student-identity-2-2-1",
        "student-identity-2-2-2", "student-identity-3-3-2", "student-identity-3-3-3", "student-identity-5-5-2",
        "student-identity-5-5-3", "normal_cdf-multinormal-sparse-3-3-2-2.0",
        "normal_cdf-multinormal-sparse-5-5-2-2.0", "normal_cdf-multinormal-sparse-25-25-2-2.0",
        "half_cube-multinormal-sparse-3-3-2-2.0", "half_cube-multinormal-sparse-5-5-2-2.0",
        "half_cube-multinormal-sparse-25-25-2-2.0", "spiral-multinormal-sparse-3-3-2-2.0",
        "spiral-multinormal-sparse-5-5-2-2.0", "spiral-multinormal-sparse-25-25-2-2.0",
        "spiral-normal_cdf-multinormal-sparse-3-3-2-2.0", "spiral-normal_cdf-multinormal-sparse-5-5-2-2.0",
        "spiral-normal_cdf-multinormal-sparse-25-25-2-2.0", "asinh-student-identity-2-2-1",
        "asinh-student-identity-3-3-2", "asinh-student-identity-5-5-2"};
    QCOMPARE(bmi.size(), 40);
    for (const QString& id : bmi) QVERIFY2(ids.contains(id), qPrintable(id));
    QCOMPARE(ids.size(), 61);
    QVERIFY(ids.contains("beyond-normal"));  // the families by keys
    // bmi's second suite's mixtures, each truth by Monte Carlo with its standard error.
    QCOMPARE(ids.mid(43, 2), (QStringList{"1v1-X-0.9", "1v1-AI"}));
    QVERIFY2(lines[43].contains(QRegularExpression(R"re(\tI\(x;y\) = 0\.41\d\d \+- 0\.00\d\d \(Monte Carlo\)$)re")),
             qPrintable(lines[43]));
    QCOMPARE(ids[56], QString("hmm-dialogue"));  // the dialogues, a user's table, the class channel, the image views
    QVERIFY2(lines[56].contains(QRegularExpression(R"re(\tI\(x,x';y\) = 0\.5709 \+- 0\.00\d\d \(Monte Carlo\))re")),
             qPrintable(lines[56]));
    QCOMPARE(ids[57], QString("data"));
    QVERIFY(lines[57].endsWith("\tno truth (a table: --file PATH)"));
    QVERIFY(lines.contains("class-channel-text\tClass channel: fortunes texts\tI(x;y) = 2.0000 (at the defaults)"));
    QCOMPARE(ids.last(), QString("fashion-mnist-views"));
    QVERIFY(lines.last().endsWith("\tno truth (image views: read by a linear probe)"));
    QVERIFY(lines.contains("gaussian2\tGaussian pair (x, y)\tI(x;y) = 2.0000 (at the defaults)"));
    QVERIFY(lines.contains(QStringLiteral("student-identity-2-2-1\tStudent-t 2 × 2 (dof=1)\tI(x;y) = 0.4319")));

    const CliResult full = cli({"tasks", "--long"});
    QCOMPARE(full.code, 0);
    QVERIFY(full.out.contains("family gaussian; offers samples, x' with samples of p(y|x'), exact PMI"));
    QVERIFY(full.out.contains("family beyond-normal; offers samples\n  x in R^2, y in R^1\n"));  // the Swiss roll
    QVERIFY(full.out.contains("  --mi-schedule"));
  }

  // Issue 45 item 4: `sample` writes the rows a run with that task, N and seed reads (before standardisation), as
  // CSV or NPY; the table read back by the data task gives KSG the same reading as the task itself.
  void sampleWritesTheRowsARunReads() {
    QTemporaryDir tmp;
    const QStringList task{"--task", "multinormal-sparse-5-5-2-2.0", "--samples", "600", "--seed", "3"};
    const CliResult csv = cli(QStringList{"sample"} + task + QStringList{"--out", tmp.filePath("rows.csv")});
    QVERIFY2(csv.code == 0, qPrintable(csv.err));
    const QList<QByteArray> lines = readAll(tmp.filePath("rows.csv")).split('\n');
    QCOMPARE(lines.first(), QByteArray("x0,x1,x2,x3,x4,y0,y1,y2,y3,y4"));
    QCOMPARE(lines.size(), 602);  // the header, 600 rows and the last newline
    QCOMPARE(lines[1].count(','), 9);
    const CliResult npy = cli(QStringList{"sample"} + task + QStringList{"--out", tmp.filePath("rows.npy")});
    QVERIFY2(npy.code == 0, qPrintable(npy.err));
    QCOMPARE(QFileInfo(tmp.filePath("rows.npy")).size(), qint64(128 + 600 * 10 * 4));

    const auto ksg = [&](const QStringList& source, const QString& name) {
      const QString out = tmp.filePath(name);
      const CliResult r = cli(QStringList{"run", "--method", "ksg", "--device", "cpu", "--out", out} + source);
      if (r.code != 0) qWarning("%s", qPrintable(r.err));
      return QJsonDocument::fromJson(readAll(out + "/summary.json")).object()["estimate"].toDouble(-1000);
    };
    const double direct = ksg(task, "direct");
    const QStringList columns{"--x_columns", "0,1,2,3,4", "--y_columns", "5,6,7,8,9",
                              "--samples",   "600",       "--seed",      "3"};
    const double fromCsv = ksg(QStringList{"--task", "data", "--file", tmp.filePath("rows.csv")} + columns, "csv");
    const double fromNpy = ksg(QStringList{"--task", "data", "--file", tmp.filePath("rows.npy")} + columns, "npy");
    QVERIFY2(direct > 0.5, qPrintable(QString::number(direct)));
    QVERIFY2(std::abs(fromCsv - direct) < 1e-6 && std::abs(fromNpy - direct) < 1e-6,
             qPrintable(QStringLiteral("task %1, csv %2, npy %3").arg(direct).arg(fromCsv).arg(fromNpy)));
    // KSG trains nothing and reads all 600 rows at once; its summary says so (it named the held-out part).
    QCOMPARE(QJsonDocument::fromJson(readAll(tmp.filePath("csv/summary.json"))).object()["estimate_source"].toString(),
             QString("all 600 samples at once (nothing trained)"));

    // Bad input: one line naming the key, exit 2, nothing written (an existing file untouched).
    const QByteArray before = readAll(tmp.filePath("rows.csv"));
    for (const QStringList& args :
         {QStringList{"--task", "1v1-normal-0.75", "--out", tmp.filePath("a.csv")},
          QStringList{"--task", "1v1-normal-0.75", "--samples", "1", "--out", tmp.filePath("a.csv")},
          QStringList{"--task", "no-such-task", "--samples", "10", "--out", tmp.filePath("a.csv")},
          QStringList{"--task", "1v1-normal-0.75", "--samples", "10", "--out", tmp.filePath("a.txt")},
          QStringList{"--task", "1v1-normal-0.75", "--samples", "10", "--out", tmp.filePath("rows.csv")},
          QStringList{"--task", "1v1-normal-0.75", "--samples", "10", "--out", tmp.filePath("no/such/dir/a.csv")},
          QStringList{"--task", "gaussian2", "--dim", "1024", "--samples", "100000000", "--out", tmp.filePath("a.csv")},
          QStringList{"--task", "1v1-normal-0.75", "--samples", "10", "--method", "ksg", "--out",
                      tmp.filePath("a.csv")}}) {
      const CliResult r = cli(QStringList{"sample"} + args);
      QVERIFY2(r.code == 2 && r.err.count('\n') == 1, qPrintable(args.join(' ') + " -> " + r.err));
    }
    QVERIFY(!QFile::exists(tmp.filePath("a.csv")) && !QFile::exists(tmp.filePath("a.txt")));
    QCOMPARE(readAll(tmp.filePath("rows.csv")), before);
  }

  // A Beyond-Normal task runs like any other: KSG reads it, and the summary carries its exact truth.
  void runsABenchmarkTask() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out");
    const CliResult r = cli({"run", "--task", "student-identity-2-2-1", "--method", "ksg", "--samples", "2000",
                             "--eval-batches", "20", "--device", "cpu", "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject s = QJsonDocument::fromJson(readAll(out + "/summary.json")).object();
    QCOMPARE(s["task"].toString(), QString("student-identity-2-2-1"));
    QCOMPARE(s["status"].toString(), QString("finished"));
    // bmi's value for this task: 0.4319 nats (its task_list.py's mutual_information, via the Student-t correction).
    QVERIFY(std::abs(s["true_mi"].toDouble() - 0.43195) < 1e-4);
    QVERIFY(std::abs(s["estimate"].toDouble() - s["true_mi"].toDouble()) < 0.25);

    // The finite-sample protocol from the command line: the held-out readings join the curve, the summary says N.
    const QString nce = tmp.filePath("nce");
    const CliResult t = cli({"run", "--task", "1v1-normal-0.75", "--method", "infonce", "--K", "32", "--samples",
                             "1000", "--steps", "300", "--eval-every", "100", "--device", "cpu", "--out", nce});
    QVERIFY2(t.code == 0, qPrintable(t.err));
    const QList<QByteArray> csv = readAll(nce + "/curve.csv").trimmed().split('\n');
    QCOMPARE(csv[0], QByteArray("step,estimate,loss,seconds,held_out"));
    QCOMPARE(csv.size(), 301);
    QVERIFY(csv[99].endsWith(","));          // step 99: no held-out reading
    QVERIFY(!csv[100].endsWith(","));        // step 100 has one
    const QJsonObject n = QJsonDocument::fromJson(readAll(nce + "/summary.json")).object();
    QCOMPARE(n["samples"].toInt(), 1000);
    // On a finite set the default recipe (auto: the lab's, bmi's at lr 0.01) reports the best of the curve's held-out
    // readings (curve.csv keeps 10 significant digits).
    QCOMPARE(n["experiment"].toObject()["report"].toString(), QString("best"));
    double best = -1e300;
    for (int i = 1; i < csv.size(); ++i)
      if (!csv[i].endsWith(",")) best = std::max(best, csv[i].split(',')[4].toDouble());
    QVERIFY(std::abs(best - n["estimate"].toDouble()) < 1e-9);
  }

  // --units bits prints the lines in bits, each amount the nats' / ln 2; summary.json stays in nats; another
  // unit is bad input, nothing written.
  void unitsBitsPrintsBitsAndWritesNats() {
    QTemporaryDir tmp;
    const QStringList run{"run", "--task",    "gaussian2", "--dim",          "1", "--mi",     "0.5", "--method",
                          "ksg", "--samples", "600",       "--permutations", "1", "--device", "cpu"};
    const CliResult nats = cli(run + QStringList{"--out", tmp.filePath("nats")});
    const CliResult bits = cli(run + QStringList{"--out", tmp.filePath("bits"), "--units", "bits"});
    QVERIFY2(nats.code == 0 && bits.code == 0, qPrintable(bits.err));
    const QJsonObject s = QJsonDocument::fromJson(readAll(tmp.filePath("bits") + "/summary.json")).object();
    QCOMPARE(s["true_mi"].toDouble(), 0.5);
    const QString expected = QStringLiteral("estimate %1 +- %2 bits, true I(x;y) 0.7213, 95% interval %3 to %4 bits")
                                 .arg(s["estimate"].toDouble() / std::log(2.0), 0, 'f', 4)
                                 .arg(s["stderr"].toDouble() / std::log(2.0), 0, 'f', 4)
                                 .arg(s["ci_low"].toDouble() / std::log(2.0), 0, 'f', 3)
                                 .arg(s["ci_high"].toDouble() / std::log(2.0), 0, 'f', 3);
    QVERIFY2(bits.out.contains(expected), qPrintable(bits.out + " / " + expected));
    QVERIFY(nats.out.contains(" nats, true I(x;y) 0.5000, 95% interval "));
    const CliResult bad = cli(run + QStringList{"--out", tmp.filePath("bad"), "--units", "furlongs"});
    QCOMPARE(bad.code, 2);
    QCOMPARE(bad.err.trimmed(), QString("milab-cli: units: must be nats or bits, got 'furlongs'"));
    QVERIFY(!QFileInfo::exists(tmp.filePath("bad")));
  }

  void runWritesValidFiles() {
    QTemporaryDir tmp;
    const QString experiment = writeFile(tmp, "exp.json", R"({"task": "gaussian3", "dim": 4, "mi": 2,
        "method": "demi", "K": 8, "steps": 50, "seed": 3})");
    const QString out = tmp.filePath("out");
    // Flags override the file: 40 steps, not 50.
    const CliResult r = cli({"run", experiment, "--steps", "40", "--device", "cpu", "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("demi gaussian3: estimate"));

    const QJsonObject s = QJsonDocument::fromJson(readAll(out + "/summary.json")).object();
    for (const char* key : {"method", "task", "dim", "K", "steps", "seed", "true_mi", "estimate", "stderr", "ceiling",
                            "terms", "seconds", "device"})
      QVERIFY2(s.contains(key), key);
    QCOMPARE(s["method"].toString(), QString("demi"));
    QCOMPARE(s["steps"].toInt(), 40);
    QCOMPARE(s["K"].toInt(), 8);
    QCOMPARE(s["device"].toString(), QString("cpu"));
    QVERIFY(std::abs(s["true_mi"].toDouble() - 2.0) < 1e-6);
    QVERIFY(std::abs(s["ceiling"].toDouble() - 2 * std::log(4.0)) < 1e-12);
    QCOMPARE(s["terms"].toObject().size(), 2);

    const QList<QByteArray> csv = readAll(out + "/curve.csv").trimmed().split('\n');
    QCOMPARE(csv[0], QByteArray("step,estimate,loss,seconds"));
    QCOMPARE(csv.size(), 41);
    QCOMPARE(csv[40].split(',')[0], QByteArray("40"));

    QVERIFY(readAll(out + "/plot.png").startsWith("\x89PNG\r\n\x1a\n"));
    QVERIFY(readAll(out + "/plot.pdf").startsWith("%PDF-"));
    QXmlStreamReader svg(readAll(out + "/plot.svg"));
    QVERIFY(svg.readNextStartElement());
    QCOMPARE(svg.name().toString(), QString("svg"));
    while (!svg.atEnd()) svg.readNext();
    QVERIFY2(!svg.hasError(), qPrintable(svg.errorString()));
  }

  void badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("file");  // experiment file contents, "" for none
    QTest::addColumn<QString>("field");
    const QStringList base{"--task", "gaussian3", "--dim", "4", "--steps", "5"};
    QTest::newRow("unknown method") << (base + QStringList{"--method", "nope"}) << ""
                                    << "method: must be one of ";  // the list grows with the plugins
    QTest::newRow("no method") << base << ""
                               << "method: required, one of ";
    QTest::newRow("a flag twice") << (base + QStringList{"--method", "ksg", "--out", "a", "--out", "b"}) << ""
                                  << "out: given twice ('a', then 'b'); give it once, or a comma list for a sweep";
    QTest::newRow("a key twice") << (base + QStringList{"--method", "ksg", "--steps", "7"}) << ""
                                 << "steps: given twice ('5', then '7')";
    QTest::newRow("unknown task") << QStringList{"--task", "gaussian9"} << ""
                                  << "task: unknown task 'gaussian9' (the nearest ids: gaussian2, gaussian3";
    QTest::newRow("misspelt benchmark id") << QStringList{"--task", "student-identiy-2-2-1"} << ""
                                           << "task: unknown task 'student-identiy-2-2-1' (the nearest ids: "
                                              "student-identity-2-2-1";
    QTest::newRow("benchmark variant out of range") << QStringList{"--task", "student-identity-2-2-0"} << ""
                                                    << "task: dof in 'student-identity-2-2-0' must be";
    // A method that needs what the task lacks is refused, naming both.
    QTest::newRow("cnce on a benchmark task")
        << QStringList{"--task", "student-identity-2-2-1", "--method", "cnce"} << ""
        << "task: method cnce needs x' and samples of the true p(y|x'), which task 'student-identity-2-2-1' does "
           "not offer";
    QTest::newRow("oracle on a benchmark task")
        << QStringList{"--task", "1v1-normal-0.75", "--method", "infonce", "--critic", "oracle"} << ""
        << "critic: oracle reads the exact PMI, which task '1v1-normal-0.75' does not offer (method infonce)";
    QTest::newRow("experiment file missing") << QStringList{"/nonexistent/exp.json"} << ""
                                             << "experiment: cannot read '/nonexistent/exp.json' (no such file)";
    QTest::newRow("data file missing")
        << QStringList{"--task", "data", "--file", "/nonexistent/mine.csv", "--x-columns", "0", "--y-columns", "1"}
        << "" << "file: '/nonexistent/mine.csv' is not a file that exists";
    QTest::newRow("samples below a split that holds a batch")
        << QStringList{"--task", "gaussian2", "--method", "infonce", "--K", "64", "--samples", "100"} << ""
        << "samples: 100 x test_fraction 0.5 gives 50 training and 50 held-out rows; method infonce needs at least "
           "one batch of 64 in each";
    // bmi's recipe and its parts (issue 45): an unknown name, and a part a method cannot take, name the key.
    QTest::newRow("unknown recipe") << QStringList{"--task", "gaussian2", "--method", "infonce", "--recipe", "bmj"}
                                    << ""
                                    << "recipe: must be one of auto|none|bmi|lab, got 'bmj'";
    QTest::newRow("unknown report") << QStringList{"--task",    "gaussian2", "--method", "infonce",
                                                   "--samples", "1000",      "--report", "max"}
                                    << ""
                                    << "report: must be one of last|best, got 'max'";
    QTest::newRow("held_out whole for a batch reader")
        << QStringList{"--task", "gaussian2", "--method", "club", "--samples", "1000", "--held_out", "whole"} << ""
        << "held_out: method club reads its held-out part in batches of its own size";
    QTest::newRow("gaussian key on a benchmark task")
        << QStringList{"--task", "1v1-normal-0.75", "--method", "infonce", "--dim", "3"} << ""
        << "dim: unknown key for task 1v1-normal-0.75";
    QTest::newRow("K < 2") << (base + QStringList{"--method", "infonce", "--K", "1"}) << ""
                           << "K: must be an integer in [2, 65536]";
    QTest::newRow("odd K for demi") << (base + QStringList{"--method", "demi", "--K", "7"}) << ""
                                    << "K: must be an even integer";
    QTest::newRow("mi = 0") << (base + QStringList{"--mi", "0"}) << ""
                            << "mi: must be a number in (0,";
    // Either side of the range, the message names the bound at this dim.
    QTest::newRow("mi < 0") << (base + QStringList{"--mi", "-1"}) << ""
                            << "mi: must be a number in (0, 20] (5 nats per dimension, dim=4), got -1";
    QTest::newRow("mi above 5 per dimension")
        << (base + QStringList{"--mi", "30"}) << ""
        << "mi: must be a number in (0, 20] (5 nats per dimension, dim=4), got 30";
    QTest::newRow("mi above the largest dim")
        << (base + QStringList{"--mi", "6000"}) << ""
        << "mi: must be a number in (0, 20] (5 nats per dimension, dim=4), got 6000";
    QTest::newRow("alpha = 1") << (base + QStringList{"--alpha", "1"}) << ""
                               << "alpha: must be a number in (0, 1)";
    QTest::newRow("alpha = 0") << (base + QStringList{"--alpha", "0"}) << ""
                               << "alpha: must be a number in (0, 1)";
    QTest::newRow("dim < 1") << QStringList{"--dim", "0"} << ""
                             << "dim: must be an integer in [1, 1024]";
    QTest::newRow("steps < 1") << QStringList{"--steps", "0"} << ""
                               << "steps: must be an integer in [1,";
    QTest::newRow("not a number") << QStringList{"--lr", "fast"} << ""
                                  << "lr: must be a number in (0, 1]";
    QTest::newRow("unknown flag") << QStringList{"--colour", "red"} << ""
                                  << "colour: unknown key";
    QTest::newRow("malformed JSON") << QStringList{} << R"({"task": "gaussian3", "dim": )"
                                    << "experiment: ";
    QTest::newRow("unknown JSON key") << QStringList{} << R"({"task": "gaussian3", "temperature": 2})"
                                      << "temperature: unknown key";
    QTest::newRow("JSON wrong type") << QStringList{} << R"({"task": "gaussian3", "K": "many"})"
                                     << "K: must be an";
    QTest::newRow("JSON nested") << QStringList{} << R"({"task": {"name": "gaussian3"}})"
                                 << "task: must be a number, string";
    QTest::newRow("cuda on a CPU build") << QStringList{"--device", "cuda"} << ""
                                         << "device: cuda requested but not available";
    QTest::newRow("grid not an object") << QStringList{} << R"({"grid": [1, 2]})"
                                        << "grid: must be an object of lists";
    QTest::newRow("grid axis empty") << QStringList{} << R"({"grid": {"K": []}})"
                                     << "grid.K: must be a non-empty list";
    QTest::newRow("methods without method") << QStringList{} << R"({"methods": [{"K": 8}]})"
                                            << "methods: each entry needs";
    // Every cell is checked before anything runs: the bad one is named after the field.
    QTest::newRow("one bad cell") << QStringList{} << R"({"task": "gaussian3", "dim": 4, "steps": 5, "method": "demi",
        "grid": {"K": [8, 7]}})"
                                  << "K: must be an even integer";
    QTest::newRow("bad sweep value") << (base + QStringList{"--method", "infonce", "--K", "8,1"}) << ""
                                     << "K: must be an integer in [2, 65536]";
    QTest::newRow("ammi h < o") << (base + QStringList{"--method", "ammi", "--order-y", "2", "--order-x", "1"}) << ""
                                << "order_x: must be >= order_y = 2";
    QTest::newRow("ammi r > m") << (base + QStringList{"--method", "ammi", "--bits", "4", "--order-prior", "5"}) << ""
                                << "order_prior: must be <= bits = 4";
    QTest::newRow("bmmi m > 16") << (base + QStringList{"--method", "bmmi", "--bits", "17"}) << ""
                                 << "bits: must be an integer in [1, 16]";
    QTest::newRow("bits < 1") << (base + QStringList{"--method", "ammi", "--bits", "0"}) << ""
                              << "bits: must be an integer in [1, 128]";
    QTest::newRow("jobs 0") << (base + QStringList{"--method", "infonce", "--jobs", "0"}) << ""
                            << "jobs: must be an integer in [1, 256]";
    QTest::newRow("empty sweep") << (base + QStringList{"--method", "infonce", "--K", ","}) << ""
                                 << "K: the list gives no value";
    QTest::newRow("schedule level too high")
        << (base + QStringList{"--method", "infonce", "--mi-schedule", "2,30"}) << ""
        << "mi_schedule: every level must be in (0, 20]";
    QTest::newRow("schedule not numbers") << (base + QStringList{"--method", "infonce", "--mi-schedule", "2,a"}) << ""
                                          << "mi_schedule: must be a comma-separated list";
    // Issue 12: every line names its field, quotes the value, and stays one line.
    QTest::newRow("flag without value") << QStringList{"--dim", "--mi", "2"} << ""
                                        << "dim: needs a value, got the flag --mi";
    QTest::newRow("one dash") << QStringList{"-K", "16"} << "" << "-K: flags take two dashes (--K)";
    QTest::newRow("flag without name") << QStringList{"--=5"} << "" << "a flag needs a name before its value: '--=5'";
    QTest::newRow("TAB in a number") << QStringList{"--K", "5\t"} << "" << "K: control character U+0009 in '5\\x09'";
    QTest::newRow("newline in --out") << QStringList{"--out", "a\nb"} << "" << "out: control character U+000a";
    QTest::newRow("not UTF-8 in --out") << QStringList{"--out", QString("a") + QChar::ReplacementCharacter}
                                        << "" << "out: not valid UTF-8";
    QTest::newRow("control character in JSON") << QStringList{} << "{\"task\": \"gaussian3\\n\"}"
                                                << "task: control character U+000a in a key or value";
    QTest::newRow("duplicate axis value") << (base + QStringList{"--method", "infonce", "--K", "8,8.0"}) << ""
                                          << "K: the value 8 is listed twice; each cell runs once";
    QTest::newRow("duplicate JSON axis") << QStringList{} << R"({"task": "gaussian2", "grid": {"mi": [2, "2"]}})"
                                         << "mi: the value 2 is listed twice";
    QTest::newRow("duplicate method rows")
        << QStringList{} << R"({"task": "gaussian2", "methods": [{"method": "nwj"}, {"method": "nwj"}]})"
        << "methods: rows 1 and 2 are the same run";
    QTest::newRow("ammi order_y above bits") << (base + QStringList{"--method", "ammi", "--bits", "4", "--order-y", "5"})
                                             << "" << "order_y: must be <= bits = 4 for ammi, got 5";
    // Issue 30: numbers JSON cannot hold name their key; a key given twice, an empty list item and a long value.
    QTest::newRow("NaN in JSON") << QStringList{} << R"({"task": "gaussian3", "dim": 4, "mi": NaN})"
                                 << "mi: NaN is not a JSON number in '";
    QTest::newRow("1e400 in JSON") << QStringList{} << R"({"task": "gaussian3", "grid": {"mi": [1, 1e400]}})"
                                   << "mi: 1e400 is not a JSON number in '";
    QTest::newRow("1e-400 in JSON") << QStringList{} << R"({"task": "gaussian3", "lr": 1e-400})"
                                    << "lr: 1e-400 is not a JSON number in '";
    // Issue 80: numbers are read as written. RFC 8259's grammar in a file (Qt's parser takes ".5" and calls "08"
    // an unterminated object); on a command line or in a JSON string no padding and no '+' sign.
    QTest::newRow(".5 in JSON") << QStringList{} << R"({"task": "gaussian3", "grid": {"mi": [1, .5]}})"
                                << "mi: .5 is not a JSON number in '";
    QTest::newRow("5. in JSON") << QStringList{} << R"({"task": "gaussian3", "lr": 5.})"
                                << "lr: 5. is not a JSON number in '";
    QTest::newRow("leading zero in JSON") << QStringList{} << R"({"task": "gaussian3", "K": 08})"
                                          << "K: 08 is not a JSON number in '";
    QTest::newRow("+8 on the command line") << QStringList{"--K", "+8"} << ""
                                            << "K: must be an integer in [4, 65536], got '+8' (digits,";
    QTest::newRow("padded number in a JSON string") << QStringList{} << R"({"task": "gaussian3", "K": " 8"})"
                                                    << "K: must be an integer in [4, 65536], got ' 8' (digits,";
    QTest::newRow("+2 jobs") << (base + QStringList{"--method", "infonce", "--jobs", "+2"}) << ""
                             << "jobs: must be an integer in [1, 256], got '+2'";
    QTest::newRow("duplicate JSON key") << QStringList{} << R"({"task": "gaussian3", "K": 8, "steps": 5, "K": 16})"
                                        << "K: the key is given twice in one object of '";
    QTest::newRow("empty list item") << (base + QStringList{"--method", "infonce", "--K", "8,,16"}) << ""
                                     << "K: the list has an empty item (two commas, or one at an end)";
    QTest::newRow("long value cut") << QStringList{"--lr", QString(300, 'x')} << ""
                                    << "lr: must be a number in (0, 1], got '" + QString(60, 'x') +
                                           "...' (300 characters)";
    // Memory no machine has (petabytes) is refused before anything is allocated, naming the key that drives it.
    QTest::newRow("demi beyond any memory") << QStringList{"--task", "gaussian3", "--method", "demi", "--K", "65536",
                                                           "--hidden", "4096"}
                                            << "" << "K: demi needs about ";
    QTest::newRow("ammi pool beyond any memory")
        << QStringList{"--task", "gaussian2", "--method", "ammi", "--bits", "128", "--order-prior", "12", "--eval-pool",
                       "1048576"}
        << "" << "eval_pool: ammi needs about ";
    QTest::newRow("club oracle pairs beyond any memory")
        << QStringList{"--task", "gaussian2", "--method", "club", "--critic", "oracle", "--batch", "65536"} << ""
        << "batch: club needs about ";
    QTest::newRow("infonce oracle pairs beyond any memory")
        << QStringList{"--task", "gaussian2", "--method", "infonce", "--critic", "oracle", "--K", "65536"} << ""
        << "K: infonce needs about ";
    QTest::newRow("steps_per_level 0") << (base + QStringList{"--method", "infonce", "--mi-schedule", "2,4",
                                                              "--steps-per-level", "0"})
                                       << ""
                                       << "steps_per_level: must be an integer in [1,";
  }

  // Every subcommand explains itself; help and --version answer; methods --long lists parameters and ceilings.
  // cli() runs milab-cli's main in a fork of the suite's zygote (cli_zygote.h): it must answer as the program does,
  // in the suite's folder and environment as they are at the call (both changed here after the zygote started).
  void zygoteAnswersAsTheProgramDoes() {
    QTemporaryDir tmp;
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(tmp.path()));
    qputenv("MILAB_DB", "from-the-environment.db");
    const QList<QStringList> commands{{"--version"}, {"help", "run"}, {"methods"},       {"run", "--K", "x"},
                                      {"history"},   {"frobnicate"},  {"run", "--steps"}};
    for (const QStringList& args : commands) {
      const CliResult inZygote = cli(args), asProcess = launch(MILAB_CLI_PATH, args);
      QCOMPARE(inZygote.code, asProcess.code);
      QCOMPARE(inZygote.out, asProcess.out);
      QCOMPARE(inZygote.err, asProcess.err);
    }
    QVERIFY(cli({"history"}).err.contains("'from-the-environment.db'"));
    const CliResult run = cli({"run", "--task", "gaussian2", "--method", "infonce", "--steps", "3", "--out", "o"});
    QCOMPARE(run.code, 0);
    QVERIFY(QFile::exists(tmp.filePath("from-the-environment.db")));  // MILAB_DB, relative to the folder
    QVERIFY(QFile::exists(tmp.filePath("o/summary.json")));
    QCOMPARE(launch(MILAB_CLI_PATH, {"history"}).code, 0);  // the program reads the run the zygote's child wrote
    qunsetenv("MILAB_DB");
    QVERIFY(QDir::setCurrent(before));
  }

  void helpAndVersion() {
    for (const char* command : {"run", "hashing", "prior-orders", "history", "show", "methods"}) {
      const CliResult r = cli({command, "--help"});
      QCOMPARE(r.code, 0);
      QVERIFY2(r.out.startsWith(QStringLiteral("usage: milab-cli %1").arg(command)), qPrintable(r.out));
      QCOMPARE(r.err, QString());
    }
    QCOMPARE(cli({"help"}).code, 0);
    QVERIFY(cli({"help", "run"}).out.startsWith("usage: milab-cli run"));
    QCOMPARE(cli({"help", "nope"}).code, 2);
    const CliResult version = cli({"--version"});
    QCOMPARE(version.code, 0);
    QVERIFY2(version.out.startsWith("milab-cli 0."), qPrintable(version.out));
    const CliResult methods = cli({"methods", "--long"});
    QCOMPARE(methods.code, 0);
    QVERIFY(methods.out.contains("infonce\tInfoNCE\n"));
    QVERIFY(methods.out.contains("ceilings: log K (4.852 at the defaults)"));
    QVERIFY(methods.out.contains(
        "  --K              contrastive set size K, samples\n      default 128; an integer in [2, 65536]"));
    QVERIFY(methods.out.contains("neither an upper nor a lower bound"));
    QVERIFY(methods.out.contains("club\tCLUB (upper bound)\n"));
    QVERIFY(methods.out.contains("an upper bound on it in expectation when its model q is good"));
    QVERIFY(methods.out.contains("trains nothing: steps are ignored"));
  }

  // Issue 14's bad input: exit 2 with one line naming the key, nothing written.
  void estimatorsBeyondContrastiveBoundsRefuseBadInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("ksg k 0") << QStringList{"--method", "ksg", "--k", "0"} << "k: must be an integer in [1, 1000]";
    QTest::newRow("ksg k >= set_size") << QStringList{"--method", "ksg", "--k", "50", "--set-size", "50"}
                                       << "k: must be below set_size (50) for ksg, got 50";
    QTest::newRow("ksg samples beyond memory")
        << QStringList{"--method", "ksg", "--set-size", "100000000", "--dim", "1024", "--mi", "5"}
        << "set_size: 100000000 draws of dimension 1024 need about";
    QTest::newRow("ksg-cmi without x'") << QStringList{"--method", "ksg-cmi"}
                                        << "task: method ksg-cmi reads x' beside x and y";
    QTest::newRow("ksg staircase") << QStringList{"--method", "ksg", "--mi_schedule", "1,2"}
                                   << "mi_schedule: method ksg trains nothing";
    QTest::newRow("doe family") << QStringList{"--method", "doe", "--family", "laplace"}
                                << "family: must be one of gaussian|logistic, got 'laplace'";
    QTest::newRow("club batch") << QStringList{"--method", "club", "--batch", "1"}
                                << "batch: must be an integer in [2, 65536], got '1'";
    // f-DIME and flow-mi: a derangement needs two rows; a divergence is a method id; a flow needs a layer.
    QTest::newRow("gan-dime batch") << QStringList{"--method", "gan-dime", "--batch", "1"}
                                    << "batch: must be an integer in [2, 65536], got '1'";
    QTest::newRow("dime negatives") << QStringList{"--method", "kl-dime", "--negatives", "shuffle"}
                                    << "negatives: must be one of derangement|permutation|all-pairs, got 'shuffle'";
    QTest::newRow("dime divergence") << QStringList{"--method", "rkl-dime"} << "method: must be one of ";
    QTest::newRow("flow depth") << QStringList{"--method", "flow-mi", "--depth", "0"}
                                << "depth: must be an integer in [1, 64], got '0'";
  }
  void estimatorsBeyondContrastiveBoundsRefuseBadInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QTemporaryDir tmp;
    const CliResult r = cli(QStringList{"run", "--task", "gaussian2", "--out", tmp.filePath("out")} + args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith("milab-cli: " + message), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(!QFileInfo::exists(tmp.filePath("out")));
  }

  // A row that cannot be read whole (another program's UPDATE: an estimate of 'abc', a summary that is not JSON) is
  // listed and shown as far as it reads, and said on stderr with exit 1 (issue 79: `show` printed it and exited 0,
  // and `history` listed 'abc' as 0.0000).
  void aDamagedHistoryRowIsSaidNotVouchedFor() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("h.sqlite");
    QCOMPARE(cli({"run", "--task", "gaussian2", "--dim", "1", "--method", "ksg", "--samples", "300", "--db", db,
                  "--out", tmp.filePath("one")})
                 .code,
             0);
    {
      QSqlDatabase c = QSqlDatabase::addDatabase("QSQLITE", "damage");
      c.setDatabaseName(db);
      QVERIFY(c.open());
      QVERIFY(QSqlQuery(c).exec("UPDATE runs SET estimate = 'abc', summary = 'nonsense' WHERE id = 1"));
      c.close();
    }
    QSqlDatabase::removeDatabase("damage");
    const CliResult list = cli({"history", "--db", db});
    QCOMPARE(list.code, 1);
    QVERIFY2(list.out.split('\n').value(1).contains(" damaged "), qPrintable(list.out));
    QVERIFY2(list.err.trimmed() == QStringLiteral("milab-cli: history: run 1 of '%1' could not be read whole (run 1: "
                                                  "estimate 'abc' is not a number, its summary is not a JSON object)")
                                       .arg(db),
             qPrintable(list.err));
    const CliResult show = cli({"show", "1", "--db", db});
    QCOMPARE(show.code, 1);
    QCOMPARE(QJsonDocument::fromJson(show.out.toUtf8()).object().value("id").toInt(), 1);
    QCOMPARE(show.err, list.err);
  }

  // The run history: a single run and a grid's cells are recorded, listed by `history` (filters, --json) and
  // printed by `show`; a failed run has no estimate.
  void historyListsAndShowsRuns() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("h.sqlite");
    QCOMPARE(cli({"run", "--task", "gaussian2", "--dim", "4", "--method", "infonce", "--K", "8", "--steps", "20",
                  "--device", "cpu", "--db", db, "--out", tmp.filePath("one")})
                 .code,
             0);
    QCOMPARE(cli({"run", "--task", "gaussian2", "--dim", "4", "--method", "nwj", "--K", "8,16", "--steps", "20",
                  "--device", "cpu", "--db", db, "--out", tmp.filePath("grid")})
                 .code,
             0);
    const CliResult list = cli({"history", "--db", db});
    QCOMPARE(list.code, 0);
    QCOMPARE(list.out.trimmed().split('\n').size(), 4);  // header + 3 runs
    const CliResult nwj = cli({"history", "--db", db, "--method", "nwj", "--json"});
    const QJsonArray runs = QJsonDocument::fromJson(nwj.out.toUtf8()).array();
    QCOMPARE(runs.size(), 2);
    QVERIFY(runs[0].toObject()["origin"].toString().startsWith("grid "));
    const qint64 id = runs[0].toObject()["id"].toInteger();
    const CliResult show = cli({"show", QString::number(id), "--db", db});
    QCOMPARE(show.code, 0);
    const QJsonObject one = QJsonDocument::fromJson(show.out.toUtf8()).object();
    QCOMPARE(one["method"].toString(), QString("nwj"));
    QCOMPARE(one["experiment"].toObject()["steps"].toInt(), 20);
    QCOMPARE(one["status"].toString(), QString("finished"));
    QCOMPARE(cli({"show", "99999", "--db", db}).code, 2);
    QCOMPARE(cli({"history", "--db", db, "--status", "nope"}).code, 2);
    QCOMPARE(cli({"history", "--db", db, "--limit", "1"}).out.trimmed().split('\n').size(), 2);

    // A finite set's run lists its interval and its p-value; the fresh-batch runs above have neither ("-").
    QCOMPARE(cli({"run", "--task", "gaussian2", "--dim", "1", "--method", "ksg", "--samples", "300", "--device", "cpu",
                  "--db", db, "--out", tmp.filePath("finite")})
                 .code,
             0);
    const QJsonObject finite = QJsonDocument::fromJson(readAll(tmp.filePath("finite/summary.json"))).object();
    const QStringList lines = cli({"history", "--db", db}).out.trimmed().split('\n');
    QVERIFY(lines[0].contains("interval") && lines[0].contains(" p "));
    const QString interval = QStringLiteral("[%1, %2]     %3")
                                 .arg(finite["ci_low"].toDouble(), 0, 'f', 3)
                                 .arg(finite["ci_high"].toDouble(), 0, 'f', 3)
                                 .arg(finite["p_value"].toDouble(), 0, 'f', 3);
    QVERIFY2(lines[1].contains(interval), qPrintable(lines[1] + " / " + interval));  // the newest first
    QVERIFY(lines[2].contains(" -                  - "));
    // A reading with no spread measured (KSG on 60 rows: too few for its interval) is its bare number, never
    // "+- 0.0000" (issue 79); a fresh-batch reading keeps its standard error.
    QCOMPARE(cli({"run", "--task", "gaussian2", "--dim", "1", "--method", "ksg", "--samples", "60", "--device", "cpu",
                  "--db", db, "--out", tmp.filePath("bare")})
                 .code,
             0);
    const QStringList withBare = cli({"history", "--db", db}).out.trimmed().split('\n');
    const QJsonObject bare = QJsonDocument::fromJson(readAll(tmp.filePath("bare/summary.json"))).object();
    QVERIFY2(withBare[1].contains(QStringLiteral("finished  %1   ").arg(bare["estimate"].toDouble(), 0, 'f', 4)),
             qPrintable(withBare[1]));
    QVERIFY2(!withBare.join('\n').contains("+- 0.0000"), qPrintable(withBare.join('\n')));
    QVERIFY2(withBare.last().contains(" +- "), qPrintable(withBare.last()));
  }

  // Issue 12's files and signals. SIGTERM (timeout) and SIGHUP (a closed terminal) stop like Ctrl-C: cancelled,
  // files written, exit 143 / 129.
  void stopSignalsWriteTheFilesAndExitWithTheirCode_data() {
    QTest::addColumn<int>("signal");
    QTest::addColumn<bool>("grid");
    QTest::newRow("SIGTERM, one run") << int(SIGTERM) << false;
    QTest::newRow("SIGHUP, a grid") << int(SIGHUP) << true;
    QTest::newRow("SIGINT, one run") << int(SIGINT) << false;
  }
  void stopSignalsWriteTheFilesAndExitWithTheirCode() {
    QFETCH(int, signal);
    QFETCH(bool, grid);
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out");
    QProcess p;
    // The grid's first cell is short and its second endless: the signal comes once the first has ended.
    p.start(MILAB_CLI_PATH, {"run", "--task", "gaussian2", "--dim", "4", "--method", "infonce", "--K", "8", "--steps",
                             grid ? "20,10000000" : "10000000", "--device", "cpu", "--db", tmp.filePath("h.sqlite"),
                             "--out", out});
    QVERIFY(p.waitForStarted());
    // The handlers are installed before anything is measured, so the signal is caught. It waits for a word from the
    // runner, whatever the machine's speed: a single run says on stderr (not a terminal here) when its first steps
    // are measured; a grid prints each cell's line on stdout as it ends.
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += grid ? p.readAllStandardOutput() : p.readAllStandardError())
                                 .contains(grid ? "[1/2] steps-20: finished" : "milab-cli: step "),
                             untilDoneMs());
    signalChild(p, signal);
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 128 + signal);
    const QString summary = grid ? out + "/cells/steps-20/summary.json" : out + "/summary.json";
    QFile f(summary);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(summary));
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(o["status"].toString(), QString(grid ? "finished" : "cancelled"));  // a cell that ended stays written
    QVERIFY(o["steps_done"].toInt() > 0);
    QCOMPARE(readAll(QFileInfo(summary).path() + "/curve.csv").count('\n'), o["steps_done"].toInt() + 1);
    if (grid) QVERIFY(QFileInfo::exists(out + "/grid.csv"));
    QVERIFY(!QFileInfo::exists(out + "/.milab.lock"));  // released
  }

  // A KSG run stopped before it read anything says "estimate none", not a 0.0000 that reads as independence. The
  // signal comes once the folder's lock exists (the handlers are installed by then), long before 200,000 rows of
  // 10 + 10 dimensions are counted.
  void aKsgStoppedBeforeItsReadingHasNoEstimate() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out");
    QProcess p;
    p.start(MILAB_CLI_PATH, {"run", "--task", "gaussian2", "--dim", "10", "--method", "ksg", "--samples", "200000",
                             "--db", tmp.filePath("h.sqlite"), "--out", out});
    QVERIFY(p.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(out + "/.milab.lock"), untilDoneMs());
    signalChild(p, SIGTERM);
    QVERIFY(p.waitForFinished(untilDoneMs()));
    QCOMPARE(p.exitCode(), 128 + SIGTERM);
    const QString said = QString::fromLocal8Bit(p.readAllStandardOutput());
    QVERIFY2(said.contains("ksg gaussian2: estimate none, "), qPrintable(said));
    const QJsonObject o = QJsonDocument::fromJson(readAll(out + "/summary.json")).object();
    QCOMPARE(o["status"].toString(), QString("cancelled"));
    QVERIFY(o["estimate"].isNull());
  }

  // --out is checked before the first step: a folder that cannot be written, or one another runner holds.
  void outIsCheckedBeforeTraining() {
    const CliResult proc = cli({"run", "--task", "gaussian2", "--method", "infonce", "--steps", "5", "--out", "/proc"});
    QCOMPARE(proc.code, 2);
    QVERIFY2(proc.err.startsWith("milab-cli: out: cannot write in '/proc'"), qPrintable(proc.err));
    QTemporaryDir tmp;
    QLockFile held(tmp.filePath(".milab.lock"));
    QVERIFY(held.tryLock(0));
    const CliResult busy = cli({"run", "--task", "gaussian2", "--method", "infonce", "--steps", "5", "--out", tmp.path()});
    QCOMPARE(busy.code, 2);
    QVERIFY2(busy.err.startsWith(QStringLiteral("milab-cli: out: '%1' is in use by pid %2")
                                     .arg(tmp.path())
                                     .arg(QCoreApplication::applicationPid())),
             qPrintable(busy.err));
    QVERIFY(!QFileInfo::exists(tmp.filePath("summary.json")));
  }

  // Reading never runs away: a device file or a file over 1 MiB is refused before it is read.
  void experimentFilesHaveALimit() {
    const CliResult zero = cli({"run", "/dev/zero", "--out", "/tmp/never"});
    QCOMPARE(zero.code, 2);
    QCOMPARE(zero.err, QString("milab-cli: experiment: '/dev/zero' is not a regular file\n"));
    QTemporaryDir tmp;
    const QString big = writeFile(tmp, "big.json", "{\"task\": \"gaussian2\"" + QByteArray(2 << 20, ' ') + "}");
    const CliResult r = cli({"run", big, "--out", tmp.filePath("out")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("more than the 1 MiB an experiment file may have"), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(tmp.filePath("out")));
  }

  // A 300-digit value still names a folder that fits (shortened, with a hash of the whole name).
  void longCellNamesFit() {
    QTemporaryDir tmp;
    const QString mi = "1." + QString(300, '0') + "1";
    const CliResult r = cli({"run", "--task", "gaussian2", "--dim", "4", "--method", "infonce", "--K", "8", "--steps",
                             "5", "--mi", mi + ",2", "--device", "cpu", "--db", tmp.filePath("h.sqlite"), "--out",
                             tmp.filePath("out")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("2 cells, 0 failed; table "), qPrintable(r.out));
    const QStringList cells = QDir(tmp.filePath("out/cells")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(cells.size(), 2);
    for (const QString& c : cells) {
      QVERIFY(c.toUtf8().size() <= 120);
      QVERIFY(QFileInfo::exists(tmp.filePath("out/cells/" + c + "/summary.json")));
    }
  }

  // SIGKILL at several moments, then a resume each time: the grid ends with the same grid.csv as one run
  // straight through (but its seconds), every cell's files complete; a cell whose curve does not match its
  // summary is run again, not trusted.
  // signalChild never sends to pid 0 (the whole process group): an ended or never-started QProcess reports pid 0.
  // Signal 0 only asks whether a signal could be sent, so without the guard kill(0, 0) succeeds and this fails.
  void signalChildSkipsAnEndedChild() {
    QProcess idle;
    QVERIFY(!signalChild(idle, 0));
    QProcess ended;
    ended.start(MILAB_CLI_PATH, {"--help"});
    QVERIFY(ended.waitForFinished(untilDoneMs()));
    QVERIFY(!signalChild(ended, 0));
  }

  void killedGridResumesToTheSameTable() {
    QTemporaryDir tmp;
    const QStringList grid{"run", "--task", "gaussian2", "--dim", "4", "--method", "infonce,nwj", "--K", "8,16",
                           "--steps", "400", "--device", "cpu", "--jobs", "2", "--db", tmp.filePath("h.sqlite")};
    QCOMPARE(cli(grid + QStringList{"--out", tmp.filePath("straight")}).code, 0);
    const QString out = tmp.filePath("killed");
    for (int waitMs : {150, 400, 700}) {
      QProcess p;
      p.start(MILAB_CLI_PATH, grid + QStringList{"--out", out});
      QVERIFY(p.waitForStarted());
      QTest::qWait(waitMs);
      // A start that resumes most cells can end on its own before the kill: then there is nothing to kill.
      if (signalChild(p, SIGKILL))
        QVERIFY(p.waitForFinished(10000));
      else
        QCOMPARE(p.state(), QProcess::NotRunning);
    }
    // A cell whose curve lost its tail (another run's, or cut short) is not reused.
    QDir cells(out + "/cells");
    for (const QString& c : cells.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
      if (QFileInfo::exists(cells.filePath(c + "/summary.json"))) {
        QFile curve(cells.filePath(c + "/curve.csv"));
        QVERIFY(curve.open(QIODevice::ReadWrite));
        curve.resize(curve.size() / 2);
        break;
      }
    const CliResult resumed = cli(grid + QStringList{"--out", out});
    QCOMPARE(resumed.code, 0);
    QCOMPARE(withoutSeconds(readAll(out + "/grid.csv")), withoutSeconds(readAll(tmp.filePath("straight/grid.csv"))));
    for (const QString& c : cells.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
      QVERIFY(QFileInfo::exists(cells.filePath(c + "/summary.json")));
      QCOMPARE(readAll(cells.filePath(c + "/curve.csv")).count('\n'), 401);
    }
  }

  // A runner killed with SIGKILL mid-run leaves a database that opens, with no partial row; two runners writing
  // at once both land.
  void killedRunnerLeavesNoPartialRowAndTwoRunnersBothLand() {
    QTemporaryDir tmp;
    const QString db = tmp.filePath("h.sqlite");
    QProcess slow;
    slow.start(MILAB_CLI_PATH, {"run", "--task", "gaussian2", "--method", "infonce", "--steps", "10000000", "--device",
                                "cpu", "--db", db, "--out", tmp.filePath("killed")});
    QVERIFY(slow.waitForStarted());
    QProcess a, b;
    for (QProcess* p : {&a, &b})
      p->start(MILAB_CLI_PATH, {"run", "--task", "gaussian2", "--dim", "4", "--method", "nwj", "--K", "8", "--steps",
                                "30", "--device", "cpu", "--db", db, "--out", tmp.filePath(p == &a ? "a" : "b")});
    QVERIFY(a.waitForFinished(untilDoneMs()) && b.waitForFinished(untilDoneMs()));
    QCOMPARE(a.exitCode(), 0);
    QCOMPARE(b.exitCode(), 0);
    signalChild(slow, SIGKILL);
    QVERIFY(slow.waitForFinished(10000));
    const CliResult list = cli({"history", "--db", db, "--json"});
    QCOMPARE(list.code, 0);
    const QJsonArray runs = QJsonDocument::fromJson(list.out.toUtf8()).array();
    QCOMPARE(runs.size(), 2);  // the two that ended; nothing of the killed one
    for (const QJsonValue& r : runs) QCOMPARE(r.toObject()["method"].toString(), QString("nwj"));
  }

  // A database that cannot be used is a warning: the run's files are written and it exits 0.
  void corruptDatabaseStillWritesTheRunsFiles() {
    QTemporaryDir tmp;
    const QString db = writeFile(tmp, "h.sqlite", QByteArray(4096, 'x'));
    const QString out = tmp.filePath("out");
    const CliResult r = cli({"run", "--task", "gaussian2", "--dim", "4", "--method", "infonce", "--steps", "10",
                             "--device", "cpu", "--db", db, "--out", out});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.contains("warning: history: cannot use '" + db + "'"), qPrintable(r.err));
    QVERIFY(QFileInfo(out + "/summary.json").size() > 0);
    QVERIFY(QFileInfo(out + "/curve.csv").size() > 0);
    QCOMPARE(cli({"history", "--db", db}).code, 2);
  }

  // An empty sweep on a folder that holds a grid's table leaves the table as it was.
  void emptySweepKeepsAnExistingTable() {
    QTemporaryDir tmp;
    const QString out = tmp.path();
    const QByteArray table = "cell,estimate\nx,1\n";
    writeFile(tmp, "grid.csv", table);
    const CliResult r = cli({"run", "--task", "gaussian2", "--method", "infonce", "--K", ",", "--out", out});
    QCOMPARE(r.code, 2);
    QCOMPARE(readAll(out + "/grid.csv"), table);
  }

  // The MI staircase from the runner: the staircase figure, the per-level table (one row per level) and the
  // levels in summary.json; InfoNCE never reads above log K, even at 10 nats.
  void staircaseWritesItsFigureAndTable() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("stairs");
    const CliResult r =
        cli({"run", "--task", "gaussian2", "--dim", "4", "--method", "infonce", "--K", "16", "--mi-schedule", "1,4,10",
             "--steps-per-level", "60", "--level-tail", "30", "--device", "cpu", "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject s = QJsonDocument::fromJson(readAll(out + "/summary.json")).object();
    QCOMPARE(s["steps"].toInt(), 180);
    QCOMPARE(s["levels"].toArray().size(), 3);
    QCOMPARE(s["levels"].toArray()[2].toObject()["target"].toDouble(), 10.0);
    const QList<QByteArray> rows = readAll(out + "/staircase.csv").trimmed().split('\n');
    QCOMPARE(rows.size(), 4);
    QCOMPARE(rows[0], QByteArray("run,level,mi,target,steps,mean,bias,variance,mse"));
    // Whole files of their formats, not merely files: PNG's signature, a PDF's header and end, an SVG's close.
    for (const char* f : {"staircase.png", "plot.png"}) QVERIFY2(readAll(out + "/" + f).startsWith("\x89PNG\r\n"), f);
    const QByteArray pdf = readAll(out + "/staircase.pdf");
    QVERIFY(pdf.startsWith("%PDF-") && pdf.trimmed().endsWith("%%EOF"));
    QVERIFY(readAll(out + "/staircase.svg").trimmed().endsWith("</svg>"));
    // Each level's statistics recomputed here from curve.csv: the mean of the estimates of its last 30 steps.
    const QList<QByteArray> curve = readAll(out + "/curve.csv").trimmed().split('\n');
    QCOMPARE(curve.size(), 181);
    for (int level = 0; level < 3; ++level) {
      double sum = 0;
      for (int step = level * 60 + 31; step <= (level + 1) * 60; ++step) sum += curve[step].split(',')[1].toDouble();
      const QList<QByteArray> row = rows[level + 1].split(',');
      QCOMPARE(row[4].toInt(), 30);
      QVERIFY2(std::abs(row[5].toDouble() - sum / 30) < 1e-5,
               qPrintable(QString("level %1: %2 vs %3").arg(level + 1).arg(row[5].toDouble()).arg(sum / 30)));
    }
  }

  // Several MI values at one K: the estimate-against-truth figure, not a column of points on a K axis; a grid
  // whose only axis is a non-numeric key or a method gets the bar chart.
  void figureFollowsTheGridsShape() {
    QTemporaryDir tmp;
    const CliResult truth = cli({"run", "--task", "gaussian2", "--dim", "4", "--mi", "1,2", "--method", "infonce,nwj",
                                 "--K", "16", "--steps", "20", "--device", "cpu", "--out", tmp.filePath("truth")});
    QVERIFY2(truth.code == 0, qPrintable(truth.err));
    QVERIFY(readAll(tmp.filePath("truth/estimate_vs_truth.png")).startsWith("\x89PNG"));
    QVERIFY(!QFileInfo::exists(tmp.filePath("truth/estimate_vs_K.png")));
    const CliResult bars = cli({"run", "--task", "gaussian2", "--dim", "4", "--method", "infonce,nwj", "--steps", "20",
                                "--device", "cpu", "--out", tmp.filePath("bars")});
    QVERIFY2(bars.code == 0, qPrintable(bars.err));
    QVERIFY(readAll(tmp.filePath("bars/estimates.svg")).contains("<svg"));
  }
  void badInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, file);
    QFETCH(QString, field);
    QTemporaryDir tmp;
    QStringList all{"run"};
    if (!file.isEmpty()) all << writeFile(tmp, "exp.json", file.toUtf8());
    const QString out = tmp.filePath("never");
    all << args << "--out" << out;
    // A run names its method (core has no default): rows about another field name demi, as the window's default
    // experiment does; the "no method" row names none.
    if (!args.contains("--method") && !file.contains("\"method") && QByteArray(QTest::currentDataTag()) != "no method")
      all << "--method"
          << "demi";
    const CliResult r = cli(all);
    QCOMPARE(r.code, 2);
    const QStringList lines = r.err.trimmed().split('\n');
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines[0].startsWith("milab-cli: " + field), qPrintable(lines[0]));
    QVERIFY(!QFileInfo::exists(out));
    QCOMPARE(r.out, QString());
  }

  // history and show only read: a database that is not there is named, nothing is created (no folders, no file,
  // no journal beside a device), and a second id is refused in show's own words.
  void historyAndShowCreateNothing() {
    QTemporaryDir tmp;
    const QString missing = tmp.filePath("typo/dir/h.sqlite");
    for (const QStringList& args : {QStringList{"history", "--db", missing}, QStringList{"show", "1", "--db", missing}}) {
      const CliResult r = cli(args);
      QCOMPARE(r.code, 2);
      QCOMPARE(r.err, QStringLiteral("milab-cli: db: no history at '%1' (no run was recorded there; --db names the "
                                     "file)\n")
                          .arg(missing));
    }
    QVERIFY(!QFileInfo::exists(tmp.filePath("typo")));
    const CliResult device = cli({"history", "--db", "/dev/null"});
    QCOMPARE(device.code, 2);
    QCOMPARE(device.err, QString("milab-cli: db: '/dev/null' is not a history database (not a regular file)\n"));
    QVERIFY(!QFileInfo::exists("/dev/null-journal") && !QFileInfo::exists("/dev/null-wal"));
    const CliResult two = cli({"show", "1", "2", "--db", missing});
    QCOMPARE(two.code, 2);
    QCOMPARE(two.err, QString("milab-cli: id: show takes one run id, got '2' after '1'\n"));
  }

  // hashing's code lengths are a list like run's: no value, an empty item or one given twice is refused before
  // anything is trained (--bits , once ran the default lengths; --bits 16,16 trained m = 16 twice).
  void hashingRefusesTheListsRunRefuses() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("never");
    const QList<QPair<QString, QString>> cases{{",", "bits: the list gives no value to run"},
                                               {"16,,32", "bits: the list has an empty item"},
                                               {"16,16", "bits: the value 16 is listed twice"}};
    for (const auto& [bits, message] : cases) {
      const CliResult r = cli({"hashing", "--method", "ammi", "--bits", bits, "--out", out});
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.startsWith("milab-cli: " + message) && r.err.count('\n') == 1, qPrintable(r.err));
      QVERIFY(!QFileInfo::exists(out));
    }
  }

  // Ctrl-C: the run stops, and what it measured is written (nothing is lost).
  void interruptKeepsResults() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out");
    QProcess p;
    p.start(MILAB_CLI_PATH, {"run", "--task", "gaussian2", "--method", "infonce", "--steps", "10000000", "--out", out});
    QVERIFY(p.waitForStarted());
    // stderr (not a terminal here) says when the first steps are measured
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError()).contains("milab-cli: step "), untilDoneMs());
    signalChild(p, SIGINT);
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 130);
    const QJsonObject s = QJsonDocument::fromJson(readAll(out + "/summary.json")).object();
    QCOMPARE(s["status"].toString(), QString("cancelled"));
    QVERIFY(s["steps_done"].toInt() > 0);
    QCOMPARE(readAll(out + "/curve.csv").count('\n'), s["steps_done"].toInt() + 1);
    QVERIFY(readAll(out + "/plot.png").startsWith("\x89PNG"));
  }

  // A sweep: one folder per cell, the combined table, the estimate-vs-K plot; a second invocation reuses
  // the finished cells instead of rerunning them.
  void gridWritesEveryCellAndResumes() {
    QTemporaryDir tmp;
    const QString experiment = writeFile(tmp, "grid.json", R"({"task": "gaussian3", "dim": 4, "steps": 20,
        "device": "cpu", "grid": {"mi": [1, 2], "K": [4, 8]},
        "methods": [{"method": "infonce"}, {"method": "demi-bo", "protocol": "marginal"}]})");
    const QString out = tmp.filePath("out");
    const CliResult r = cli({"run", experiment, "--jobs", "2", "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QStringList cells = QDir(out + "/cells").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(cells.size(), 8);
    QVERIFY(cells.contains("demi-bo_protocol-marginal_K-8_mi-2"));
    for (const QString& c : cells) {
      const QJsonObject s = QJsonDocument::fromJson(readAll(out + "/cells/" + c + "/summary.json")).object();
      QCOMPARE(s["status"].toString(), QString("finished"));
      QCOMPARE(readAll(out + "/cells/" + c + "/curve.csv").count('\n'), 21);
    }
    const QList<QByteArray> table = readAll(out + "/grid.csv").trimmed().split('\n');
    QCOMPARE(table.size(), 9);
    QVERIFY(table[0].startsWith("cell,method,task,mi,K,seed,protocol,steps,status,target,true_value,estimate,stderr"));
    QVERIFY(table[0].contains("ceiling log K") && table[0].contains("ceiling 2 log K"));
    QVERIFY(table[0].contains(",term I_IS(x;y|x'),term I_NCE,term I_NCE(x';y),"));  // every term, a column each
    QVERIFY(readAll(out + "/estimate_vs_K.png").startsWith("\x89PNG\r\n\x1a\n"));
    QVERIFY(readAll(out + "/estimate_vs_K.pdf").startsWith("%PDF-"));
    QVERIFY(readAll(out + "/estimate_vs_K.svg").contains("<svg"));

    const CliResult again = cli({"run", experiment, "--jobs", "2", "--out", out});
    QCOMPARE(again.code, 0);
    QCOMPARE(again.out.count(", reused"), 8);
    QCOMPARE(readAll(out + "/grid.csv").trimmed().split('\n'), table);  // the same numbers, read back
  }

  // AMMI's Figure 1(a) in miniature: the closed-form prior's cross entropy never rises with r, reaches the
  // brute-force H(Z) at r = m - 1, and the Adam-fitted prior never beats it.
  void priorOrderSweepWritesFigure1a() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("fig1a");
    const CliResult r =
        cli({"prior-orders", "--task",        "gaussian2", "--dim",    "4",   "--mi",        "2", "--method",
             "ammi",         "--bits",        "6",         "--steps",  "60",  "--max-order", "5", "--fit-steps",
             "150",          "--fixed-batch", "32",        "--device", "cpu", "--out",       out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QList<QByteArray> rows = readAll(out + "/prior_orders.csv").trimmed().split('\n');
    QCOMPARE(rows.size(), 7);
    QCOMPARE(rows[0],
             QByteArray("order,optimal_cross_entropy,fitted_cross_entropy,brute_force_entropy,m_log_2,fit_seconds"));
    double previous = 1e300, last = 0, bruteForce = 0;
    for (int i = 1; i < rows.size(); ++i) {
      const QList<QByteArray> f = rows[i].split(',');
      QCOMPARE(f[0].toInt(), i - 1);
      const double optimal = f[1].toDouble(), fitted = f[2].toDouble();
      bruteForce = f[3].toDouble();
      QVERIFY(optimal <= previous + 1e-6);
      QVERIFY2(fitted >= optimal - 1e-4,
               qPrintable(QString("r=%1: fitted %2 < optimal %3").arg(i - 1).arg(fitted).arg(optimal)));
      QVERIFY(optimal <= std::log(64.0) + 1e-9);
      previous = last = optimal;
    }
    QVERIFY2(std::abs(last - bruteForce) < 1e-4, qPrintable(QString("%1 vs %2").arg(last).arg(bruteForce)));
    const QJsonObject s = QJsonDocument::fromJson(readAll(out + "/summary.json")).object();
    QCOMPARE(s["status"].toString(), QString("finished"));
    QCOMPARE(s["orders"].toArray().size(), 6);
    QCOMPARE(s["experiment"].toObject()["method"].toString(), QString("ammi"));
    QVERIFY(readAll(out + "/prior_orders.png").startsWith("\x89PNG\r\n\x1a\n"));
    QVERIFY(readAll(out + "/prior_orders.pdf").startsWith("%PDF-"));
    QVERIFY(readAll(out + "/prior_orders.svg").contains("<svg"));
  }

  // The preset itself (m = 16, ammi encoder, r = 0..13; about 25 s since the prior fits on aggregate windows)
  // shows the paper's finding: far above the brute-force H(Z) at r = 0 (measured 11.03 vs 3.72), falling with r,
  // to within 0.01 at r = 13 (measured 0.0001 closed form, 0.003 fitted). The fitted prior stays within 0.02 above
  // the closed form (measured at most 0.0099).
  void figure1aPresetShowsThePapersFinding() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("fig1a");
    const CliResult r = cli({"prior-orders", MILAB_SOURCE_DIR "/resources/experiments/ammi-figure1a.json", "--device",
                             "cpu", "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject s = QJsonDocument::fromJson(readAll(out + "/summary.json")).object();
    const double entropy = s["brute_force_entropy"].toDouble();
    const QJsonArray orders = s["orders"].toArray();
    QCOMPARE(orders.size(), 14);
    double previous = 1e300;
    for (const QJsonValue& v : orders) {
      const QJsonObject o = v.toObject();
      const double optimal = o["optimal_cross_entropy"].toDouble(), fitted = o["fitted_cross_entropy"].toDouble();
      const QString where = QString("r=%1: optimal %2, fitted %3").arg(o["order"].toInt()).arg(optimal).arg(fitted);
      QVERIFY2(optimal <= previous + 1e-6, qPrintable(where));
      QVERIFY2(fitted >= optimal - 1e-4 && fitted - optimal < 0.02, qPrintable(where));
      previous = optimal;
    }
    const double first = orders.first()["optimal_cross_entropy"].toDouble();
    const double last = orders.last()["fitted_cross_entropy"].toDouble();
    QVERIFY2(first - entropy > 5.0, qPrintable(QString("r=0 %1 vs H(Z) %2").arg(first).arg(entropy)));
    QVERIFY2(last - entropy < 0.01, qPrintable(QString("r=13 %1 vs H(Z) %2").arg(last).arg(entropy)));
  }

  void priorOrdersBadInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("field");
    const QStringList noMethod{"--task", "gaussian2", "--dim", "4", "--steps", "5"};
    const QStringList base = noMethod + QStringList{"--method", "bmmi"};
    QTest::newRow("no method") << noMethod << "method: required for the prior-order sweep, one of ammi|bmmi";
    QTest::newRow("max_order >= bits") << (base + QStringList{"--bits", "6", "--max-order", "6"})
                                       << "max_order: must be < bits = 6";
    QTest::newRow("max_order < order_y") << (base + QStringList{"--bits", "6", "--order-y", "2", "--order-x", "2",
                                                                "--max-order", "1"})
                                         << "max_order: must be >= order_y = 2";
    QTest::newRow("not a Markov method") << (noMethod + QStringList{"--method", "infonce"})
                                         << "method: must be one of ammi|bmmi for the prior-order sweep";
    QTest::newRow("ammi bits > 16") << (noMethod + QStringList{"--method", "ammi", "--bits", "20"})
                                    << "bits: must be <= 16";
    QTest::newRow("fixed batch too large")
        << (base + QStringList{"--bits", "16", "--eval-pool", "1024", "--fixed-batch", "2048"})
        << "fixed_batch: must be <= 2^26 / 2^bits = 1024";
    QTest::newRow("fit_lr 0") << (base + QStringList{"--fit-lr", "0"}) << "fit_lr: must be a number in (0, 1]";
    QTest::newRow("a sweep value") << (base + QStringList{"--bits", "6,8"})
                                   << "grid: the prior-order sweep takes one encoder";
  }
  void priorOrdersBadInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, field);
    QTemporaryDir tmp;
    const QString out = tmp.filePath("never");
    const CliResult r = cli(QStringList{"prior-orders"} + args + QStringList{"--out", out});
    QCOMPARE(r.code, 2);
    const QStringList lines = r.err.trimmed().split('\n');
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines[0].startsWith("milab-cli: " + field), qPrintable(lines[0]));
    QVERIFY(!QFileInfo::exists(out));
  }

  // bmmi's automatic evaluation pool shrinks with m, so its defaults run at the largest m it allows.
  void bmmiAtSixteenBitsRunsWithDefaults() {
    QTemporaryDir tmp;
    const CliResult r = cli({"run", "--task", "gaussian2", "--dim", "2", "--mi", "1", "--method", "bmmi", "--bits",
                             "16", "--steps", "2", "--device", "cpu", "--out", tmp.filePath("out")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject s = QJsonDocument::fromJson(readAll(tmp.filePath("out/summary.json"))).object();
    QCOMPARE(s["status"].toString(), QString("finished"));
  }

  // Without the dataset, hashing refuses up front (exit 2) with the line that says how to install it.
  void hashingWithoutTheDatasetSaysHowToInstall() {
    QTemporaryDir tmp;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("MILAB_FASHION_MNIST", tmp.filePath("nowhere"));
    p.setProcessEnvironment(env);
    p.start(MILAB_CLI_PATH, {"hashing", "--method", "ammi", "--bits", "16", "--out", tmp.filePath("never")});
    QVERIFY(p.waitForFinished(untilDoneMs()));
    QCOMPARE(p.exitCode(), 2);
    const QString err = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
    QVERIFY2(err.startsWith("milab-cli: dataset: Fashion-MNIST not found"), qPrintable(err));
    QVERIFY(err.contains("sudo apt-get install dataset-fashion-mnist"));
    QVERIFY(!err.contains('\n'));
    QVERIFY(!QFileInfo::exists(tmp.filePath("never")));
  }

  // Output that cannot be written whole (a full disk: /dev/full) is an error, not exit 0 with part of it written.
  void aShortWriteToStdoutIsAnError_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("methods") << QStringList{"methods", "--long"};
    QTest::newRow("tasks") << QStringList{"tasks"};
    QTest::newRow("help") << QStringList{"--help"};
  }
  void aShortWriteToStdoutIsAnError() {
    QFETCH(QStringList, args);
    if (!QFileInfo::exists("/dev/full")) QSKIP("no /dev/full on this system");
    QProcess p;
    p.setStandardOutputFile("/dev/full");
    p.start(MILAB_CLI_PATH, args);
    QVERIFY(p.waitForFinished(untilDoneMs()));
    QCOMPARE(p.exitCode(), 1);
    const QString err = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
    QVERIFY2(err.startsWith("milab-cli: stdout: the output could not be written whole"), qPrintable(err));
    QVERIFY(!err.contains('\n'));
  }

  // Links planted in an --out folder are not followed (issue 80): each result replaces its link, the link's target
  // keeps its bytes. A run's curve, plots and summary; a grid's table and a cell's files.
  void linksPlantedInOutAreNotFollowed() {
    QTemporaryDir tmp;
    const QDir dir(tmp.path());
    const QString target = dir.filePath("precious.txt");
    QFile f(target);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("keep me\n");
    f.close();
    const auto plant = [&](const QString& folder, const QStringList& names) {
      QDir().mkpath(folder);
      for (const QString& n : names) QVERIFY(QFile::link(target, QDir(folder).filePath(n)));
    };
    const QString one = dir.filePath("one"), grid = dir.filePath("grid");
    plant(one, {"curve.csv", "plot.png", "plot.svg", "summary.json"});
    plant(grid, {"grid.csv"});
    plant(QDir(grid).filePath("cells/seed-2"), {"curve.csv", "summary.json"});
    CliResult r = cli({"run", "--task", "gaussian2", "--dim", "2", "--method", "ksg", "--samples", "300", "--out", one});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    r = cli({"run", "--task", "gaussian2", "--dim", "2", "--method", "ksg", "--samples", "300", "--seed", "1,2",
             "--out", grid});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(readAll(target), QByteArray("keep me\n"));
    for (const QString& path : {one + "/curve.csv", one + "/plot.png", one + "/plot.svg", one + "/summary.json",
                                grid + "/grid.csv", grid + "/cells/seed-2/curve.csv", grid + "/cells/seed-2/summary.json"}) {
      QVERIFY2(!QFileInfo(path).isSymLink() && QFileInfo(path).size() > 0, qPrintable(path));
    }
    // A folder link (cells, or one cell's folder) would take a grid outside its folder: refused, naming it, and the
    // folder it points to stays empty.
    const QString elsewhere = dir.filePath("elsewhere");
    QVERIFY(QDir().mkpath(elsewhere));
    for (const QString& link : {dir.filePath("g2/cells"), dir.filePath("g3/cells/seed-1")}) {
      QVERIFY(QDir().mkpath(QFileInfo(link).path()));
      QVERIFY(QFile::link(elsewhere, link));
      const QString folder = link.section("/cells", 0, 0);
      r = cli({"run", "--task", "gaussian2", "--dim", "2", "--method", "ksg", "--samples", "300", "--seed", "1,2",
               "--out", folder});
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.contains(QStringLiteral("out: '%1' is a link (to '%2')").arg(link, elsewhere)), qPrintable(r.err));
      QVERIFY(QDir(elsewhere).isEmpty());
    }
  }

  // A run whose training blew up is never a clean "finished" on stdout (issue 80's second probe: kl-dime at lr 1 read
  // -0.0000 and said finished, its flag on stderr only): the result line names the flags, their reasons follow.
  void aDivergedRunSaysSoOnItsResultLine() {
    QTemporaryDir tmp;
    const CliResult r = cli({"run", "--task", "1v1-normal-0.75", "--method", "kl-dime", "--lr", "1", "--steps", "200",
                             "--out", tmp.filePath("out")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("(finished, flagged training_diverged, "), qPrintable(r.out));
    QVERIFY2(r.err.contains("milab-cli: flag training_diverged: the training loss reached "), qPrintable(r.err));
  }

  // A lock file that names no owner (empty: a crash between creating and writing it) does not block its folder for
  // good as "pid 0": once it is older than a lock's writing takes, it is removed and the run goes on.
  void anOwnerlessLockDoesNotBlockItsFolder() {
    QTemporaryDir tmp;
    const QString out = tmp.filePath("out"), lock = out + "/.milab.lock";
    QDir().mkpath(out);
    QFile f(lock);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(-60), QFileDevice::FileModificationTime));
    f.close();
    const CliResult r = cli({"run", "--task", "gaussian2", "--dim", "2", "--method", "ksg", "--samples", "300", "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(QFileInfo::exists(out + "/summary.json"));
    // One just written is said for what it is, not as "in use by pid 0" (the run above removed its own lock).
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    const CliResult young = cli({"run", "--task", "gaussian2", "--dim", "2", "--method", "ksg", "--samples", "300",
                                 "--out", out});
    QCOMPARE(young.code, 2);
    QVERIFY2(young.err.contains("has a lock file that names no owner") && !young.err.contains("pid 0"),
             qPrintable(young.err));
  }

  // The memory guards read the limits set on the process, not only the machine (issue 80): under an address-space
  // limit of 4 GB (set in the child's own shell) a run needing 6 GiB is refused at validation, naming its key and
  // the limit, where the machine alone would let it pass.
  void memoryGuardsReadTheProcesssLimits_data() {
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("says");
    QTest::newRow("infonce's K") << "--task gaussian2 --method infonce --K 20000"
                                 << "K: infonce needs about 6.1 GiB for its K x K score matrices (K = 20000)";
    QTest::newRow("ksg's set_size") << "--task gaussian2 --dim 20 --method ksg --set-size 3000000"
                                    << "set_size: 3000000 draws of dimension 20 need about ";
    // Sized by the task's real widths, not --dim (a Beyond-Normal variant of 300 x 300 has no --dim).
    QTest::newRow("ksg on a wide variant") << "--task beyond-normal --dim-x 300 --dim-y 300 --method ksg --set-size 100000"
                                           << "set_size: 100000 draws of dimension 300 need about 2.2 GiB";
    QTest::newRow("demi-vision's batch") << "--task fashion-mnist-views --method demi-vision --batch 2048 --channels 64"
                                         << "batch: demi-vision needs about 8.7 GiB for the encoder's activations";
    QTest::newRow("flow-mi's batch") << "--task gaussian2 --method flow-mi --batch 65536 --depth 16 --width 256"
                                     << "batch: flow-mi needs about 10.6 GiB for the flows' activations";
  }
  void memoryGuardsReadTheProcesssLimits() {
    QFETCH(QString, args);
    QFETCH(QString, says);
    QProcess p;
    p.start("sh", {"-c", QStringLiteral("ulimit -v 4000000 && exec '%1' run %2 --out /nonexistent/never --check")
                             .arg(MILAB_CLI_PATH, args)});
    QVERIFY(p.waitForFinished(untilDoneMs()));
    const QString err = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
    QCOMPARE(p.exitCode(), 2);
    QVERIFY2(err.startsWith("milab-cli: " + says), qPrintable(err));
    QVERIFY2(err.contains("more than half of the 3.8 GiB of the process's address-space limit (ulimit -v)"),
             qPrintable(err));
  }

  // A tiny run under a 1 GiB address-space limit ends, finished or refused in one line (issue 80's probe: OpenBLAS
  // retried its buffer without end after the last step, and SIGTERM did not stop it). The libraries alone take most
  // of such a limit, so here it is refused at validation ("memory: infonce trains ..."); where they take less it
  // trains.
  void aTinyRunUnderATightAddressSpaceLimitEnds() {
    QTemporaryDir tmp;
    QProcess p;
    p.start("sh", {"-c", QStringLiteral("ulimit -v 1000000 && exec '%1' run --task gaussian2 --dim 3 --method infonce "
                                        "--K 16 --steps 50 --device cpu --db '%2' --out '%3'")
                             .arg(MILAB_CLI_PATH, tmp.filePath("h.sqlite"), tmp.filePath("out"))});
    QVERIFY(p.waitForFinished(untilDoneMs()));
    const QStringList err = QString::fromLocal8Bit(p.readAllStandardError()).trimmed().split('\n');
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && (p.exitCode() == 0 || p.exitCode() == 2),
             qPrintable(err.join('\n')));
    if (p.exitCode() == 2) {
      QCOMPARE(err.size(), 1);
      QVERIFY2(err[0].startsWith("milab-cli: memory: infonce trains") && err[0].contains("ulimit -v"),
               qPrintable(err[0]));
      QVERIFY(!QFileInfo::exists(tmp.filePath("out/summary.json")));
    } else {
      QVERIFY(QFileInfo::exists(tmp.filePath("out/summary.json")));
    }
  }

  // A thread count from the environment is bounded (core/engine/device.h, kMaxLabThreads): MILAB_THREADS=100000
  // started thousands of threads per run and never got going; the run now ends, with 256.
  void aHugeThreadCountFromTheEnvironmentIsBounded() {
    QTemporaryDir tmp;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("MILAB_THREADS", "100000");
    p.setProcessEnvironment(env);
    p.start(MILAB_CLI_PATH, {"run", "--task", "gaussian2", "--dim", "2", "--method", "infonce", "--steps", "5",
                             "--db", tmp.filePath("h.sqlite"), "--out", tmp.filePath("out")});
    QVERIFY(p.waitForFinished(untilDoneMs()));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY(QFileInfo::exists(tmp.filePath("out/summary.json")));
  }

  void missingOutIsBadInput() {
    const CliResult r = cli({"run", "--method", "infonce", "--steps", "5"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith("milab-cli: out: required"), qPrintable(r.err));
  }
};

// The zygote forks before QCoreApplication and before any thread exists; without one, cli() starts processes.
QTEST_MAIN_WRAPPER(TestCli, if (!cli_zygote::start()) qInfo("cli_zygote: not started; milab-cli runs as a process");
                   QTEST_QAPP_SETUP(QCoreApplication))
#include "test_cli.moc"
