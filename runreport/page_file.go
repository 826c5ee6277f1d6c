package runreport

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
	"github.com/nip-rs/harness/witnesshtml"
)

// WritePage writes witnesses as one page (Page) to path; rs holds what
// replaying each found (nil for one the run found itself), verdicts what
// the run said of each ("" for the witness's own verdict), and render
// draws each witness's text. Its errors name the -html flag, whose file
// it is.
func WritePage(path string, ws []*witnessfile.Witness, rs []*witnessfile.Replayed, verdicts []string, render func(*witnessfile.Witness) (string, error)) error {
	p, err := Page(ws, rs, verdicts, render)
	if err != nil {
		return fmt.Errorf("-html: %v", err)
	}
	if err := witnesshtml.WriteFile(path, p); err != nil {
		return fmt.Errorf("-html: %w", err)
	}
	return nil
}

// WriteLassoPage writes a walk or community lasso as one page to path:
// data is the file, rules the rule set it was replayed under ("" for the
// file's), and text and reproduced what catalog.ReplayLasso returned. A
// file the page cannot read writes nothing.
func WriteLassoPage(path string, data []byte, rules, text string, reproduced bool) error {
	f, err := witnesshtml.ParseLassoFile(data)
	if err != nil {
		return fmt.Errorf("-html: %v", err)
	}
	if rules == "" {
		rules = f.Rules
	}
	w := witnesshtml.FromLasso(f, rules, text, reproduced)
	// What the rule set changes, said as for a witness of the same
	// universes (the walk's, the community's).
	family := history.KindHistory
	if f.Kind == witnesshtml.KindCommunityLasso {
		family = mutants.KindCommunity
	}
	w.Changed = Changes(&witnessfile.Witness{Kind: family, Rules: rules})
	p := witnesshtml.Page{Title: fmt.Sprintf("%s lasso: %s", strings.ReplaceAll(f.Kind, "-", " "), f.Invariant), Witnesses: []witnesshtml.Witness{w}}
	if err := witnesshtml.WriteFile(path, p); err != nil {
		return fmt.Errorf("-html: %w", err)
	}
	return nil
}
