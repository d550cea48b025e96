// Package docs checks the documentation a user reads, README.md and the
// pages of docs/: every relative link names a file that exists (and an
// anchor of the glossary that exists), and each page links a glossary
// term to its entry where the page first uses it, so a page read on its
// own defines its words. It holds tests only.
//
// Imports (layer 0): none.
package docs
