// Package runreport is what one exploration of a universe found, as the
// explorer prints it: the table of each tie policy's search, the invariant
// rows beside the directed checks, the witnesses, the JSON document, and
// the verdict that splits what failed into safety and spec-text
// conformance over the part of the gate's suite the run covered (package
// mutants classifies every check; a coverage check counts toward
// neither). A rule set under an amendment, or the other reading of a
// sentence of the text, is judged by that verdict alone.
//
// It also holds the whole-suite run of an amendment (amendment.go: every
// check of the gate's suite with the amendment as the rule set, one
// verdict on all of them) and the page of witnesses (page.go: what each
// witness's run changed from the production rules), both of which need
// amendments and mutants together (neither imports the other), and for
// the same reason the gate's baseline by name (control.go: proposed,
// spec, an amendment or a reading of the text).
//
// Files: run.go (the run), witnesses.go (its status, exit code and
// witness files), text.go (the table), json.go (the document),
// verdict.go (the verdict and the scope), replay.go (a replay's verdict
// line and exit code), amendment.go, page.go, control.go.
package runreport
