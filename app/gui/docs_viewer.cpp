#include "gui/docs_viewer.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QVBoxLayout>
#include <algorithm>

#include "gui/docs_pages.h"

namespace milab {

namespace {
constexpr int kNaturalSize = QTextFormat::UserProperty;  // a picture's size in its file, in its image format
}  // namespace

DocsViewer::DocsViewer(QWidget* parent)
    : QDialog(parent), browser_(new QTextBrowser(this)), back_(new QPushButton(tr("Back"), this)) {
  setObjectName("docsViewer");
  browser_->setObjectName("docsBrowser");
  back_->setObjectName("docsBack");
  back_->setToolTip(tr("The page shown before (Alt+Left)"));
  back_->setEnabled(false);
  browser_->setOpenLinks(true);
  browser_->setOpenExternalLinks(false);
  // A page of the docs (a relative .md link, with or without its #section) opens here; anything else (a web
  // address, a source file) goes to the desktop's own program for it.
  connect(browser_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (!url.isLocalFile() || !url.toLocalFile().endsWith(".md")) QDesktopServices::openUrl(url);
  });
  connect(browser_, &QTextBrowser::sourceChanged, this, &DocsViewer::pageShown);
  connect(browser_, &QTextBrowser::backwardAvailable, back_, &QPushButton::setEnabled);
  connect(back_, &QPushButton::clicked, browser_, &QTextBrowser::backward);
  auto* layout = new QVBoxLayout(this);
  auto* bar = new QHBoxLayout;
  bar->addWidget(back_);
  bar->addStretch();
  layout->addLayout(bar);
  layout->addWidget(browser_);
  resize(900, 700);
}

// Each page shown, by the menu or a link: its pictures fitted, its title in the window's, and the section a link
// names in view (Qt's Markdown gives headings no anchors, so the section is found by its GitHub-style name).
void DocsViewer::pageShown(const QUrl& url) {
  fitPictures();
  const QString title = browser_->document()->firstBlock().text().trimmed();
  setWindowTitle(tr("milab: %1").arg(title.isEmpty() ? url.fileName() : title));
  if (!url.hasFragment()) return;
  for (QTextBlock block = browser_->document()->begin(); block.isValid(); block = block.next())
    if (block.blockFormat().headingLevel() > 0 && headingAnchor(block.text()) == url.fragment()) {
      browser_->setTextCursor(QTextCursor(block));
      const QRectF at = browser_->document()->documentLayout()->blockBoundingRect(block);
      browser_->verticalScrollBar()->setValue(int(at.top()));
      return;
    }
}

void DocsViewer::resizeEvent(QResizeEvent* event) {
  QDialog::resizeEvent(event);
  fitPictures();
}

bool DocsViewer::showPage(const QString& page, QString* error) {
  const QString folder = docsFolder();
  if (folder.isEmpty()) {
    *error = tr("The lab's docs are not installed beside the program (looked in %1; MILAB_DOCS_DIR names another "
                "folder)")
                 .arg(docsFolderLookedIn());
    return false;
  }
  const QString path = QDir(folder).filePath(page);
  if (!QFileInfo(path).isFile()) {
    *error = tr("%1 is not in the docs folder %2").arg(page, folder);
    return false;
  }
  // The docs folder and the project's root (the README's pictures in resources/figures) for relative pictures.
  browser_->setSearchPaths({folder, QDir(folder).filePath("..")});
  browser_->setSource(QUrl::fromLocalFile(path), QTextDocument::MarkdownResource);
  return true;
}

void DocsViewer::fitPictures() {
  // Before the dialog is first shown its layout has not run: the width it will have, less the frame and scroll bar.
  const int page = browser_->isVisible() ? browser_->viewport()->width() : width() - 60;
  const int room = page - 2 * int(browser_->document()->documentMargin()) - 4;
  QTextCursor cursor(browser_->document());
  for (QTextBlock block = browser_->document()->begin(); block.isValid(); block = block.next())
    for (auto it = block.begin(); !it.atEnd(); ++it) {
      const QTextFragment fragment = it.fragment();
      QTextImageFormat image = fragment.charFormat().toImageFormat();
      if (!image.isValid()) continue;
      // The picture's own size, read from its file once and kept in its format: a resize only scales it.
      QSize natural = image.property(kNaturalSize).toSize();
      if (!natural.isValid()) {
        const QVariant resource = browser_->loadResource(QTextDocument::ImageResource, QUrl(image.name()));
        natural = (resource.typeId() == QMetaType::QImage ? resource.value<QImage>()
                                                          : QImage::fromData(resource.toByteArray()))
                      .size();
        if (!natural.isValid()) continue;
        image.setProperty(kNaturalSize, natural);
      }
      const int fitted = std::min(room, natural.width());  // a widened window gives a picture its room back
      if (qFuzzyCompare(image.width(), double(fitted))) continue;
      image.setWidth(fitted);
      image.setHeight(double(natural.height()) * fitted / natural.width());
      cursor.setPosition(fragment.position());
      cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
      cursor.setCharFormat(image);
    }
}

}  // namespace milab
