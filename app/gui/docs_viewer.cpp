#include "gui/docs_viewer.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocumentFragment>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QVBoxLayout>

#include "gui/docs_pages.h"

namespace milab {

DocsViewer::DocsViewer(QWidget* parent) : QDialog(parent), browser_(new QTextBrowser(this)) {
  setObjectName("docsViewer");
  browser_->setObjectName("docsBrowser");
  browser_->setOpenLinks(true);
  browser_->setOpenExternalLinks(false);
  // A page of the docs (a relative .md link, with or without its #section) opens here; anything else (a web
  // address, a source file) goes to the desktop's own program for it.
  connect(browser_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (!url.isLocalFile() || !url.toLocalFile().endsWith(".md")) QDesktopServices::openUrl(url);
  });
  // The pages' pictures are window grabs 1600 pixels wide: each is drawn at the page's width, not beside a scroll bar.
  connect(browser_, &QTextBrowser::sourceChanged, this, [this] { fitPictures(); });
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(browser_);
  resize(900, 700);
}

bool DocsViewer::showPage(const QString& page, QString* error) {
  const QString folder = docsFolder();
  if (folder.isEmpty()) {
    *error = tr("The lab's docs are not installed beside the program (looked in %1; MILAB_DOCS_DIR names another "
                "folder)")
                 .arg(QDir::cleanPath(QCoreApplication::applicationDirPath() + "/../share/doc/milab"));
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
  // A Markdown page's title is its first heading, the document's first block.
  const QString title = browser_->document()->firstBlock().text().trimmed();
  setWindowTitle(tr("milab: %1").arg(title.isEmpty() ? page : title));
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
      const QVariant resource = browser_->loadResource(QTextDocument::ImageResource, QUrl(image.name()));
      const QImage picture = resource.canConvert<QImage>() && resource.typeId() == QMetaType::QImage
                                 ? resource.value<QImage>()
                                 : QImage::fromData(resource.toByteArray());
      if (picture.isNull() || picture.width() <= room) continue;
      image.setWidth(room);
      image.setHeight(double(picture.height()) * room / picture.width());
      cursor.setPosition(fragment.position());
      cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
      cursor.setCharFormat(image);
    }
}

}  // namespace milab
