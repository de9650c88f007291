#pragma once
// The lab's documentation as the window finds it: docs/ beside the program (an install's share/doc/milab, or the
// build tree's link to the source's docs/, as the plugins are found beside the program), and where in docs/methods.md
// each method is described, for the form's tooltips and Help > Methods.
#include <QString>

namespace milab {

// Where the docs are looked for: $MILAB_DOCS_DIR when set, else <program>/../share/doc/milab.
QString docsFolderLookedIn();
// The folder holding getting-started.md, concepts.md and the other pages: docsFolderLookedIn() when it holds
// concepts.md, else empty.
QString docsFolder();

// The heading of the section of `methodsMarkdown` (docs/methods.md's text) that names the method `id` most often (as
// a word of its own, in any case), the earlier one on a tie; text before the first section counts as the page's
// title's; empty when the page never names it.
QString methodDocSection(const QString& methodsMarkdown, const QString& id);

// "methods.md, "<section>" (Help > Methods)" for the method, read from the docs folder (once per program); empty when
// the docs are not there or do not name it.
QString methodDocReference(const QString& id);

// A heading's anchor as GitHub names it, which the docs' links use: lower case, spaces to '-', punctuation but '-'
// and '_' dropped ("Grids: the papers' figures" -> "grids-the-papers-figures").
QString headingAnchor(const QString& heading);

// A method's tooltip in the form: its one-line summary, then where the docs describe it (when they are there).
QString methodToolTip(const QString& id, const QString& summary);

}  // namespace milab
