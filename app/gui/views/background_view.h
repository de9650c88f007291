#pragma once
// One kind of long experiment the window runs in the background and shows in a plot of its own: a grid of
// runs, AMMI's prior-order sweep, Fashion-MNIST hashing. The window starts one at a time, polls it from its
// timer, stops it, and exports what it shows through it; the view reads the file, runs the work off the GUI
// thread, draws, and writes the same files as milab-cli.
#include <QLockFile>
#include <QString>
#include <QStringList>
#include <memory>

#include "engine/run_spec.h"

class QCPItemText;
class QCustomPlot;
class QWidget;

namespace milab {

class BackgroundView {
 public:
  explicit BackgroundView(QWidget* parent);  // the plot is a child of `parent`
  virtual ~BackgroundView();
  BackgroundView(const BackgroundView&) = delete;
  BackgroundView& operator=(const BackgroundView&) = delete;

  QCustomPlot* plot() const { return plot_; }
  bool running() const { return running_; }

  // Reads and checks the file, claims `outDir` (results/out_folder.h: made, writable, locked until the work
  // ends), starts the work. "" or the error line: then nothing started.
  QString start(const QString& path, const QString& outDir);
  // Follows the work; once it is over, writes its files and draws the result, and returns true (that once).
  bool poll();
  virtual void cancel() = 0;                                // what ended is still written
  virtual QString progressLine() const = 0;                 // for the status bar while it runs
  virtual QString startedHtml() const = 0;                  // for the result label once started
  QString resultHtml() const;                               // once over: the summary, the folder, any error in red
  virtual QString exportTo(const QString& path) const = 0;  // .csv, .json or a plot (.png/.pdf/.svg)
  // What the form shows while it runs: the run it trains (a grid's first cell, the sweep's encoder), if any, and
  // one line saying what runs.
  virtual const RunSpec* formSpec() const { return nullptr; }
  virtual QString runningLine() const = 0;
  virtual QString pageTitle() const = 0;  // the name of its tab beside the set's Curves and Figure

 protected:
  virtual QString what() const = 0;                       // "a grid", for messages
  virtual bool claimsOutFolder() const { return true; }   // false when the work's own process locks it
  virtual QString prepare(const QString& path) = 0;       // reads and checks the file: "" or the error line
  virtual void launch(const QString& outDir) = 0;         // starts the prepared work
  virtual bool update() = 0;                              // follows the work; true once it is over
  virtual QStringList finish(const QString& outDir) = 0;  // writes the files and draws: errors, or none
  virtual QString summaryHtml() const = 0;
  // Until a figure drawn only at the end (the sweep's, hashing's) has something to show: its title, and in the
  // middle of the axes what runs and how far it got (progressLine, updated on every poll), not bare axes.
  void showPending(const QString& title);
  QString pendingText() const;  // the waiting note: progressLine() and when the figure comes

 private:
  QCPItemText* pendingNote_ = nullptr;  // owned by the plot; gone once the figure is drawn
  QCustomPlot* plot_;
  QString outDir_;
  QStringList errors_;
  std::unique_ptr<QLockFile> lock_;
  bool running_ = false;
};

}  // namespace milab
