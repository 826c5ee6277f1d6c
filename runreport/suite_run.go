package runreport

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
)

// SuiteHead is the first line of a whole-suite run of the rule set named
// rules under the policies tl: the flags that reproduce it (-tie both for
// the two policies).
func SuiteHead(rules string, tl []model.TiePolicy, workers int) string {
	tie := "both"
	if len(tl) != 2 {
		tie = tl[0].String()
	}
	return fmt.Sprintf("explore -rules=%s -tie=%s -workers=%d: the whole suite (version %s)", rules, tie, workers, cli.Version())
}

// Write reports the suite's run to w: the JSON document, or the text
// (WriteText) that follows the head line.
func (r *AmendmentReport) Write(w io.Writer, asJSON bool) {
	if asJSON {
		b, _ := json.MarshalIndent(r, "", "  ") // plain data always marshals
		fmt.Fprintln(w, string(b))
		return
	}
	r.WriteText(w)
}
