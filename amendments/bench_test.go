package amendments

import (
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// BenchmarkReference explores the reference universe at its depth bound
// under the production rules, and under an amendment with its register
// rules wrapped by a Diff: the cost of counting what the amendment changed.
func BenchmarkReference(b *testing.B) {
	cat := exhaustive.NewCatalog()
	u, err := cat.Universe("reference")
	if err != nil {
		b.Fatal(err)
	}
	a, _ := Lookup("b-max-frontier")
	for _, bc := range []struct {
		name  string
		rules func() *model.Rules
	}{
		{"spec", model.Proposed},
		{"amended-with-diff", func() *model.Rules {
			var d Diff
			return d.Wrap(a.Rules(model.ClearWins), model.Proposed())
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				r, err := exhaustive.Explore(exhaustive.Config{Universe: u, Rules: bc.rules(), Workers: 1})
				if err != nil || r.Status != exhaustive.StatusOK {
					b.Fatalf("%v %v", err, r.Status)
				}
			}
		})
	}
}
