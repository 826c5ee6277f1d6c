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
// A universe the explorer has no path of its own for (the paged history
// walk and its variants, a community universe, candidate A's encoding)
// runs through its catalogue entry on one path (entry.go: the runs a
// command line asks for; entry_report.go: their witness files, report
// and exit code), and list.go is everything a command line can name.
//
// Files: explore.go (a command line's exploration from plain arguments:
// its header, checks of the input, searches, directed checks and report;
// checkpoint.go: which command lines may checkpoint),
// run.go (the run), search.go (its searches, one per tie),
// output.go (the finished run's files, page and report), witnesses.go
// (its status, exit code and witness files), text.go (the table), json.go (the document),
// verdict.go (the verdict and the scope), replay.go (a replay's verdict
// line, its text as ReplayText writes it, and its exit code),
// replay_run.go (a witness file or lasso replayed as -replay reports it),
// page_file.go (a page of witnesses or of a lasso written to a file),
// amendment.go, suite_run.go (the whole-suite run's head line and
// report), page.go, control.go, entry.go, entry_report.go, list.go.
package runreport
