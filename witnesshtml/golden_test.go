package witnesshtml

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"testing"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/figfile"
)

var update = flag.Bool("update", false, "rewrite the golden figures under testdata/figures")

// The page of every witness kind that had one before lassos had pages is
// pinned by its bytes (length and SHA-256): a page is read, linked to and
// compared across runs, so adding a kind must not change any other kind's
// page, down to the embedded script and style. The network's lassos
// (M32, M33) are pinned as the lasso script draws them.
func TestExistingPagesKeepTheirBytes(t *testing.T) {
	walk := func() Witness { return tiesWalkPage(t) }
	pages := []struct {
		name string
		ws   []Witness
	}{
		{"explore-M3", []Witness{storedPage(t, "../mutants/testdata/M3.clear")}},
		{"explore-spill", []Witness{storedPage(t, "../exhaustive/testdata/network-live-no-baseline.witness")}},
		{"directed-M10", []Witness{storedPage(t, "../mutants/testdata/M10.set")}},
		{"load-L1", []Witness{storedPage(t, "../mutants/testdata/L1.clear")}},
		{"history-ties", []Witness{walk()}},
		{"community-K1", []Witness{storedPage(t, "../mutants/testdata/K1.clear")}},
		{"network-lasso-M32", []Witness{storedPage(t, "../mutants/testdata/M32.clear")}},
		{"agreement-M33", []Witness{storedPage(t, "../mutants/testdata/M33.clear")}},
		{"trace-and-load", []Witness{trace(t), loadTrace(t), directedTrace(t)}},
	}
	figs := figfile.For(t, *update)
	for _, p := range pages {
		var b bytes.Buffer
		if err := Write(&b, Page{Title: "witness " + p.name, Witnesses: p.ws}); err != nil {
			t.Fatal(err)
		}
		figs.Line(fmt.Sprintf("%s %d bytes sha256 %x", p.name, b.Len(), sha256.Sum256(b.Bytes())))
	}
}

// tiesWalkPage is the stored ties witness's page with its walk traced
// under the text's rules, as explore -html draws it.
func tiesWalkPage(t *testing.T) Witness {
	t.Helper()
	w, text := stored(t, "../history/testdata/ties.spec")
	pw := FromWitness(w, text, nil)
	v, err := history.Trace(w, history.Spec())
	if err != nil {
		t.Fatal(err)
	}
	pw.Walk = v
	return pw
}
