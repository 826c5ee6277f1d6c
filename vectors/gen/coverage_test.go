package gen

import (
	"fmt"
	"slices"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/spec"
)

func TestVectorSections(t *testing.T) {
	for in, want := range map[string][]string{
		"Full-State Load, step 4":                        {"Full-State Load"},
		"Full-State Load, the tag-free filter; Fetching": {"Full-State Load", "Fetching"},
		"Content (NIP-44 encryption to self); Content":   {"Content"},
		"community-history-sync §3, bridge":              {"community-history-sync"},
		"Liveness Predicate (F <= B); Tie Policy":        {"Liveness Predicate", "Tie Policy"},
		"Example; Test Vectors; Invalid Cases":           {"Example", "Test Vectors", "Invalid Cases"},
		"d Tag (conflict); Fetching; Writing":            {"d Tag", "Fetching", "Writing"},
		" ; ":                                            nil,
	} {
		if got := VectorSections(in); !slices.Equal(got, want) {
			t.Errorf("VectorSections(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestVectorFiguresInNote: the pinned table of vector counts per kind, the
// total, and the requirement rows the vectors cite are the committed
// files' own.
func TestVectorFiguresInNote(t *testing.T) {
	note := figfile.For(t, *update)
	files := committed(t)
	total := 0
	for _, f := range files {
		note.Line(fmt.Sprintf("| %s | %s |", f.Kind, num.Commas(len(f.Vectors))))
		total += len(f.Vectors)
	}
	note.Line(fmt.Sprintf("| all | %s |", num.Commas(total)))
	reqs, err := spec.Requirements()
	if err != nil {
		t.Fatal(err)
	}
	rep := Coverage(files, reqs)
	note.Line(fmt.Sprintf("%d of %d requirement rows have vectors", rep.Covered(), len(rep.Rows)))
	// Every section of the load procedure and of the Full-State Load's
	// requirements is cited by the load vectors.
	for _, r := range rep.Rows {
		if r.Req.Section == "Full-State Load" && r.ByKind["load"] == 0 {
			t.Errorf("%s (Full-State Load) has no load vector", r.Req.ID)
		}
	}
	if rep.Unmatched[historyDoc] == 0 {
		t.Errorf("no vector cites %s", historyDoc)
	}
}
