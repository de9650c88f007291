// The window's Help menu opens the docs' pages in the window, found beside the program as the plugins are (issue 84,
// item 4), and each method in the form names, on hover, the section of docs/methods.md that describes it.
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QMenuBar>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QAbstractTextDocumentLayout>
#include <QPushButton>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextImageFormat>
#include <QtTest>

#include "engine/device.h"
#include "gui/docs_pages.h"
#include "gui/docs_viewer.h"
#include "gui/main_window.h"
#include "gui/panels/experiment_panel.h"
#include "method/method_registry.h"
#include "screenshots.h"

using namespace milab;

namespace {

QString firstHeading(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  for (const QString& line : QString::fromUtf8(f.readAll()).split('\n'))
    if (line.startsWith("# ")) return line.mid(2).trimmed();
  return {};
}

QAction* helpAction(MainWindow& w, const QString& name) {
  for (QAction* a : w.menuBar()->actions())
    if (a->menu() && a->menu()->objectName() == "helpMenu")
      for (QAction* item : a->menu()->actions())
        if (item->objectName() == name) return item;
  return nullptr;
}

}  // namespace

class TestHelpPages : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
    qunsetenv("MILAB_DOCS_DIR");
  }

  // The build tree's share/doc/milab is the source's docs/, as an install's is its copy.
  void theDocsAreFoundBesideTheProgram() {
    const QString folder = docsFolder();
    QVERIFY2(!folder.isEmpty(), "no docs folder beside the program");
    QCOMPARE(QDir(folder).canonicalPath(), QDir(QStringLiteral(MILAB_SOURCE_DIR "/docs")).canonicalPath());
  }

  // Each entry of the menu opens its page in a window of its own, drawn from the page's Markdown, with every
  // picture the page shows loaded (a missing picture would be an empty box).
  void everyHelpEntryOpensItsPageWithItsPictures_data() {
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("page");
    QTest::newRow("getting started") << "helpGettingStarted"
                                     << "getting-started.md";
    QTest::newRow("concepts") << "helpConcepts"
                              << "concepts.md";
    QTest::newRow("user guide") << "helpGuide"
                                << "user-guide.md";
    QTest::newRow("methods") << "helpMethods"
                             << "methods.md";
  }
  void everyHelpEntryOpensItsPageWithItsPictures() {
    QFETCH(QString, action);
    QFETCH(QString, page);
    MainWindow w(registry_, QString());
    QAction* a = helpAction(w, action);
    QVERIFY2(a, qPrintable(action));
    a->trigger();
    auto* viewer = w.findChild<DocsViewer*>("docsViewer");
    QVERIFY(viewer);
    QVERIFY(viewer->isVisible());
    const QString heading = firstHeading(QDir(docsFolder()).filePath(page));
    QVERIFY(!heading.isEmpty());
    QVERIFY2(viewer->browser()->toPlainText().startsWith(heading),
             qPrintable(viewer->browser()->toPlainText().left(80)));
    QVERIFY(viewer->windowTitle().contains(heading));
    QFile f(QDir(docsFolder()).filePath(page));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QRegularExpression picture(R"(!\[[^\]]*\]\(([^)]+)\))");
    for (auto it = picture.globalMatch(QString::fromUtf8(f.readAll())); it.hasNext();) {
      const QUrl url = viewer->browser()->source().resolved(QUrl(it.next().captured(1)));
      const QVariant image = viewer->browser()->loadResource(QTextDocument::ImageResource, url);
      QVERIFY2(image.isValid() && !image.toByteArray().isEmpty(), qPrintable(url.toString()));
    }
    // A picture wider than the page (the window grabs) is drawn at the page's width, not past a scroll bar.
    for (QTextBlock block = viewer->browser()->document()->begin(); block.isValid(); block = block.next())
      for (auto it = block.begin(); !it.atEnd(); ++it)
        if (const QTextImageFormat image = it.fragment().charFormat().toImageFormat(); image.isValid())
          QVERIFY2(image.width() <= viewer->width(), qPrintable(image.name()));  // 0: drawn at its own width
    saveScreenshot(*viewer, "help-" + page.chopped(3));
    viewer->close();
  }

  // A link to another page of the docs opens it in the same window.
  void aLinkToAnotherPageOpensItInPlace() {
    DocsViewer viewer;
    QString error;
    QVERIFY2(viewer.showPage("concepts.md", &error), qPrintable(error));
    viewer.browser()->setSource(QUrl("user-guide.md"));
    QVERIFY(viewer.browser()->toPlainText().startsWith(firstHeading(QDir(docsFolder()).filePath("user-guide.md"))));
  }

  // Without the docs the menu says where it looked, on the status bar, and the result line keeps the runs' reading.
  void missingDocsAreSaidOnTheStatusBar() {
    QTemporaryDir empty;
    qputenv("MILAB_DOCS_DIR", empty.path().toUtf8());
    MainWindow w(registry_, QString());
    QAction* a = helpAction(w, "helpConcepts");
    QVERIFY(a);
    a->trigger();
    qunsetenv("MILAB_DOCS_DIR");
    QVERIFY(!w.findChild<DocsViewer*>("docsViewer"));
    QVERIFY2(w.statusBar()->currentMessage().contains("not installed beside the program"),
             qPrintable(w.statusBar()->currentMessage()));
  }

  // The section finder against a page written here: a method belongs to the section that names it most (its id as a
  // word, in any case), the page's opening counting as its title's, the earlier on a tie; a fenced block is not
  // prose; an id inside another id is not it; an unknown id has none.
  void aMethodsSectionIsTheOneThatNamesItMost() {
    const QString page = "# Methods\n\n| id | bound |\n|---|---|\n| infonce | I_NCE |\n| mmg | I-MMSE |\n"
                         "| ksg | k-NN |\n\n## Diffusion\n\n```\nmilab-cli run --method ksg --method ksg\n```\n\n"
                         "The `mmg` estimator: MMG reads ...\n\n## KSG\n\n`ksg` counts neighbours; KSG is exact; "
                         "`infonce` is compared, and ksg-cmi too.\n";
    QCOMPARE(methodDocSection(page, "mmg"), QString("Diffusion"));
    QCOMPARE(methodDocSection(page, "ksg"), QString("KSG"));
    QCOMPARE(methodDocSection(page, "infonce"), QString("Methods"));
    QCOMPARE(methodDocSection(page, "ksg-cmi"), QString("KSG"));
    QCOMPARE(methodDocSection(page, "club"), QString());
    QCOMPARE(methodDocSection(page, "info"), QString());
  }

  // Links name sections as GitHub does; the viewer finds the heading by that name.
  void aHeadingsAnchorIsGitHubs() {
    QCOMPARE(headingAnchor("Grids: the papers' figures, sweeps over K, MI, seeds"),
             QString("grids-the-papers-figures-sweeps-over-k-mi-seeds"));
    QCOMPARE(headingAnchor("Your own data"), QString("your-own-data"));
    QCOMPARE(headingAnchor("Beyond log K: f-DIME and normalizing_flows"),
             QString("beyond-log-k-f-dime-and-normalizing_flows"));
  }

  // A link to a section opens its page there, the window takes the page's title, and Back returns.
  void aLinkToASectionOpensThePageAtIt() {
    DocsViewer viewer;
    viewer.show();
    QString error;
    QVERIFY2(viewer.showPage("getting-started.md", &error), qPrintable(error));
    auto* back = viewer.findChild<QPushButton*>("docsBack");
    QVERIFY(back && !back->isEnabled());
    viewer.browser()->setSource(QUrl("user-guide.md#your-own-data"));
    QVERIFY(viewer.windowTitle().contains("User guide"));
    QTextBlock heading;
    for (QTextBlock b = viewer.browser()->document()->begin(); b.isValid() && !heading.isValid(); b = b.next())
      if (b.text() == "Your own data") heading = b;
    QVERIFY(heading.isValid());
    const double top = viewer.browser()->document()->documentLayout()->blockBoundingRect(heading).top();
    const int scrolled = viewer.browser()->verticalScrollBar()->value();
    QVERIFY2(scrolled > 0 && (scrolled == viewer.browser()->verticalScrollBar()->maximum() || qAbs(scrolled - top) < 2),
             qPrintable(QStringLiteral("scrolled to %1, the section at %2").arg(scrolled).arg(top)));
    QVERIFY(back->isEnabled());
    back->click();
    QVERIFY(viewer.windowTitle().contains("Getting started"));
  }

  // On hover every method the form offers gives its summary and where docs/methods.md describes it.
  void everyMethodInTheFormNamesItsDocSection() {
    MainWindow w(registry_, QString());
    auto* method = w.panel()->findChild<QComboBox*>("methodCombo");
    QVERIFY(method);
    auto* model = qobject_cast<QStandardItemModel*>(method->model());
    QVERIFY(model);
    QStringList without;
    QMap<QString, QString> sections;
    for (int i = 0; i < method->count(); ++i) {
      const QString tip = model->item(i)->toolTip();
      if (!model->item(i)->isEnabled()) continue;  // the reason the task cannot run it, instead
      const MethodPlugin* m = registry_.find(method->itemData(i).toString());
      QVERIFY(m);
      QVERIFY2(tip.startsWith("<p>" + m->info().summary.toHtmlEscaped() + "</p>"), qPrintable(tip));
      if (!tip.contains("In the docs: methods.md, &quot;")) without << m->info().id;
      sections.insert(m->info().id, tip);
    }
    QVERIFY2(without.isEmpty(), qPrintable("no doc section for " + without.join(", ")));
    // Not the page's opening table, which names every method: the section that describes it.
    QVERIFY2(sections.value("flow-mi").contains("normalizing flows"), qPrintable(sections.value("flow-mi")));
    QVERIFY2(sections.value("ammi").contains("The discrete methods"), qPrintable(sections.value("ammi")));
  }

 private:
  MethodRegistry registry_;
};

QTEST_MAIN(TestHelpPages)
#include "test_help_pages.moc"
