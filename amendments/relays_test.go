package amendments

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/relaysim"
)

// update rewrites the golden figures under testdata/figures.
var update = flag.Bool("update", false, "rewrite the golden figures under testdata/figures")

// TestRelayAmendments: each relay amendment's witness is a false complete
// under the production rules over the profile it names, and none over the
// conformant relay; the profile declares no break but the amendment's;
// each defence is a LoadRules field; the names are distinct from every
// rule-set amendment; and the list of names, requirements and profiles is
// pinned in testdata/figures.
func TestRelayAmendments(t *testing.T) {
	note := figfile.For(t, *update)
	names := map[string]bool{}
	for _, a := range All() {
		names[a.Name] = true
	}
	reqs := map[model.RelayRequirement]bool{}
	for _, a := range Relays() {
		t.Run(a.Name, func(t *testing.T) {
			if names[a.Name] || reqs[a.Requirement] {
				t.Fatalf("%s (%s) named twice", a.Name, a.Requirement)
			}
			names[a.Name], reqs[a.Requirement] = true, true
			p, err := relaysim.ByName(a.Profile, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Breaks) > 0 && !slices.Equal(p.Breaks, []model.RelayRequirement{a.Requirement}) {
				t.Errorf("%s breaks %v, not only %s", a.Profile, p.Breaks, a.Requirement)
			}
			data, err := os.ReadFile(filepath.Join("..", "props", "testdata", "witness", a.Witness+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var w props.Witness
			if err := json.Unmarshal(data, &w); err != nil {
				t.Fatal(err)
			}
			if w.Config.Profile != a.Profile || w.Check != props.CheckSoundness {
				t.Fatalf("witness %s is a %s witness over %s", a.Witness, w.Check, w.Config.Profile)
			}
			if v, _ := props.Replay(w, model.Proposed()); v == nil || !strings.Contains(v.Detail, "false complete") {
				t.Errorf("witness %s under the production rules: %v", a.Witness, v)
			}
			w.Config.Profile = "conformant"
			if v, _ := props.Replay(w, model.Proposed()); v != nil {
				t.Errorf("witness %s over the conformant relay: %v", a.Witness, v)
			}
			lr := reflect.TypeFor[model.LoadRules]()
			for _, f := range a.Defences {
				if _, ok := lr.FieldByName(f); !ok {
					t.Errorf("defence %s is not a LoadRules field", f)
				}
			}
			if a.Title == "" || a.Rationale == "" || a.Covered == "" {
				t.Error("title, rationale and what the load covers are required")
			}
			note.Line("`" + a.Name + "` " + string(a.Requirement) + " " + a.Profile)
		})
	}
}
