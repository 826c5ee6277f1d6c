// Package runreport is what one exploration of a universe found, as the
// explorer prints it: the table of each tie policy's search, the invariant
// rows beside the directed checks, the witnesses, the JSON document, and
// the verdict that splits what failed into safety and spec-text
// conformance over the part of the gate's suite the run covered (package
// mutants classifies every check; a coverage check counts toward
// neither). A rule set under an amendment, or the other reading of a
// sentence of the text, is judged by that verdict alone.
//
// Files: run.go (the run and its status), text.go (the table), json.go
// (the document), verdict.go (the verdict and the scope).
package runreport
