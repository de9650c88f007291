#pragma once
// Help's pages in the window: a page of the docs folder (gui/docs_pages.h) drawn from its Markdown, its pictures
// and its links to the other pages followed in place, so a reader needs no browser and no network.
#include <QDialog>

class QPushButton;
class QTextBrowser;
class QUrl;

namespace milab {

class DocsViewer : public QDialog {
  Q_OBJECT
 public:
  explicit DocsViewer(QWidget* parent = nullptr);
  // Shows `page` (e.g. "getting-started.md") of the docs folder; false, with the reason in *error, when the folder
  // or the page is not there.
  bool showPage(const QString& page, QString* error);
  QTextBrowser* browser() const { return browser_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;  // the pictures fitted again

 private:
  void pageShown(const QUrl& url);
  void fitPictures();  // each picture drawn at most at the page's width
  QTextBrowser* browser_;
  QPushButton* back_;
};

}  // namespace milab
