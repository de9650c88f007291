// MainWindow's menus: File (open data, export what is shown, save the set as an experiment file), View (the units
// readings are shown in), Experiments (experiment files into the form, as a grid or as a comparison set; the
// bundled presets; the prior-order sweep and hashing) and Help (the docs' pages, read in the window).
#include <QActionGroup>
#include <QDir>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

#include "gui/docs_viewer.h"
#include "gui/file_dialogs.h"
#include "gui/main_window.h"
#include "gui/views/comparison_view.h"
#include "gui/views/hashing_view.h"
#include "gui/views/prior_order_view.h"

namespace milab {

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  auto exportShown = [this](const QString& path, QString* written) { return exportTo(path, written); };
  // Each dialog is titled by what it saves and suggests a name from the set (or experiment) shown.
  const auto exportAction = [=](const QString& title, const QString& what, const QString& suffix,
                                const QString& filter) {
    file->addAction(title + "...", this,
                    [=] { saveWithDialog(title, suggestedName(what, suffix), filter, exportShown); });
  };
  file->addAction(tr("Open data..."), this, [this] {
    const QString path = askOpenFile(this, tr("Open data"), workspace_.lastFolder(),
                                     tr("Tables (*.csv *.tsv *.txt *.npy *.npz);;All files (*)"));
    if (!path.isEmpty()) openData(path);
  });
  file->addSeparator();
  exportAction(tr("Export the plot as PNG"), "plot", "png", "PNG image (*.png)");
  exportAction(tr("Export the plot as PDF"), "plot", "pdf", "PDF document (*.pdf)");
  exportAction(tr("Export the plot as SVG"), "plot", "svg", "SVG image (*.svg)");
  exportAction(tr("Export the curves as CSV"), "curves", "csv", "CSV table (*.csv)");
  exportAction(tr("Export the summaries as JSON"), "summary", "json", "JSON (*.json)");
  file->addSeparator();
  file->addAction(tr("Export the results table as CSV..."), this, [this] {
    saveWithDialog(tr("Export the results table as CSV"), suggestedName("runs", "csv"), tr("CSV table (*.csv)"),
                   [this](const QString& p, QString*) { return comparison_->exportTable(p); });
  });
  file->addAction(tr("Export the set's figure..."), this, [this] {
    saveWithDialog(tr("Export the set's figure"), suggestedName("figure", "png"), tr("Images (*.png *.pdf *.svg)"),
                   [this](const QString& p, QString*) { return comparison_->exportFigure(p); });
  });
  file->addAction(tr("Save run set as experiment..."), this, [this] {
    saveWithDialog(
        tr("Save the run set as an experiment"), suggestedName("set", "json"), tr("Experiment (*.json)"),
        [this](const QString& p, QString*) { return comparison_->saveSet(p); },
        tr("Saved %1: milab-cli run %1 --out DIR reproduces it"));
  });
  file->addSeparator();
  file->addAction(tr("Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QMenu* units = view->addMenu(tr("Units"));
  auto* unitGroup = new QActionGroup(this);
  for (const auto& [u, text, name] : {std::tuple{Units::Nats, tr("nats (the lab's)"), "unitsNats"},
                                       std::tuple{Units::Bits, tr("bits"), "unitsBits"}}) {
    QAction* a = units->addAction(text);
    a->setObjectName(name);
    a->setCheckable(true);
    a->setChecked(u == units_);
    unitGroup->addAction(a);
    connect(a, &QAction::triggered, this, [this, u = u] { setUnits(u); });
  }

  QMenu* experiments = menuBar()->addMenu(tr("&Experiments"));
  experiments->addAction(tr("Open experiment file..."), this, [this] {
    const QString path = askOpenFile(this, tr("Open experiment"), workspace_.lastFolder(), tr("Experiment (*.json)"));
    if (!path.isEmpty()) openExperimentWithDialogs(path);
  });
  experiments->addAction(tr("Open as comparison set..."), this, [this] {
    const QString path = askOpenFile(this, tr("Open run set"), workspace_.lastFolder(), tr("Experiment (*.json)"));
    if (path.isEmpty()) return;
    const QString err = openRunSet(path);
    if (!err.isEmpty()) QMessageBox::warning(this, tr("Run set not opened"), err);
  });
  QMenu* recent = experiments->addMenu(tr("Recent experiment files"));
  recent->setObjectName("recentMenu");
  connect(recent, &QMenu::aboutToShow, this, [this, recent] {
    recent->clear();
    for (const QString& f : workspace_.recentFiles())
      recent->addAction(f, this, [this, f] { openExperimentWithDialogs(f); });
    if (recent->isEmpty()) recent->addAction(tr("(none yet)"))->setEnabled(false);
  });
  experiments->addSeparator();
  // The bundled presets (resources/milab.qrc): a single run fills the form, a grid asks for its folder.
  for (const QFileInfo& f : QDir(":/experiments").entryInfoList({"*.json"}, QDir::Files, QDir::Name))
    experiments->addAction(f.completeBaseName(), this,
                           [this, path = f.filePath()] { openExperimentWithDialogs(path); });

  experiments->addSeparator();
  experiments->addAction(tr("AMMI Figure 1(a): prior-order sweep..."), this,
                         [this] { startWithDialogs(sweep_.get(), ":/sweeps/ammi-figure1a.json"); });
  experiments->addAction(tr("Open prior-order sweep file..."), this, [this] { startWithDialogs(sweep_.get(), {}); });
  experiments->addSeparator();
  auto shapeHashing = [this](const QString& path) { return this->shapeHashing(path); };
  experiments->addAction(tr("Fashion-MNIST hashing: AMMI against LSH..."), this, [this, shapeHashing] {
    startWithDialogs(hashing_.get(), ":/hashing/fashion-mnist-hashing.json", shapeHashing);
  });
  experiments->addAction(tr("Fortunes hashing (texts by topic): AMMI against LSH..."), this, [this, shapeHashing] {
    startWithDialogs(hashing_.get(), ":/hashing/fortunes-hashing.json", shapeHashing);
  });
  experiments->addAction(tr("Open hashing file..."), this,
                         [this, shapeHashing] { startWithDialogs(hashing_.get(), {}, shapeHashing); });

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->setObjectName("helpMenu");
  for (const auto& [title, page, name] :
       {std::tuple{tr("Getting started"), "getting-started.md", "helpGettingStarted"},
        std::tuple{tr("Concepts"), "concepts.md", "helpConcepts"},
        std::tuple{tr("User guide"), "user-guide.md", "helpGuide"},
        std::tuple{tr("Methods"), "methods.md", "helpMethods"}}) {
    QAction* a = help->addAction(title, this, [this, page = QString(page)] { openHelpPage(page); });
    a->setObjectName(name);
  }
}

DocsViewer* MainWindow::openHelpPage(const QString& page) {
  auto* viewer = new DocsViewer(this);
  viewer->setAttribute(Qt::WA_DeleteOnClose);
  QString error;
  if (!viewer->showPage(page, &error)) {
    delete viewer;
    statusBar()->showMessage(error);  // not the result line: what the runs read stays there
    return nullptr;
  }
  viewer->show();
  return viewer;
}

}  // namespace milab
