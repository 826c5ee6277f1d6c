package gen

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// maskMembers removes the members at paths (vocabulary form) from x.
func maskMembers(x any, paths []string) {
	var drop func(v any, segs []string)
	drop = func(v any, segs []string) {
		switch v := v.(type) {
		case []any:
			if segs[0] == "[]" && len(segs) > 1 {
				for _, e := range v {
					drop(e, segs[1:])
				}
			}
		case map[string]any:
			if len(segs) == 1 {
				delete(v, segs[0])
			} else if e, ok := v[segs[0]]; ok {
				drop(e, segs[1:])
			}
		}
	}
	for _, p := range paths {
		drop(x, strings.Split(p, "."))
	}
}

// TestCanonicalStoreAcceptsCompactingClient: a client that compacts every
// context's register on receipt holds raw registers unlike the expected
// ones in some scripts, which the full profile therefore fails; the
// canonical-store profile compares observable state only and passes
// exactly the scripts where that client's observable state is the
// expected one, which must include some the full profile fails.
func TestCanonicalStoreAcceptsCompactingClient(t *testing.T) {
	var ignore []string
	for _, p := range Profiles() {
		if p.Name == ProfileCanonicalStore {
			ignore = p.Ignore["register"]
		}
	}
	compactOnReceipt := func(r *model.Replica, s step) {
		if s.Do == "receive" {
			for _, c := range r.Contexts() {
				r.Compact(c)
			}
		}
	}
	var scripts, rawDiffer, observedDiffer int
	for _, f := range committed(t) {
		if f.Kind != "register" {
			continue
		}
		for _, v := range f.Vectors {
			var in registerInput
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatal(err)
			}
			if in.Op != "script" {
				continue
			}
			scripts++
			after, err := runScriptWith(SpecRules().Model, in.Parents, in.Steps, compactOnReceipt)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := marshal(registerOutput{After: after})
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(v.Expected, &want); err != nil {
				t.Fatal(err)
			}
			if reflect.DeepEqual(got, want) {
				continue
			}
			rawDiffer++
			maskMembers(got, ignore)
			maskMembers(want, ignore)
			if !reflect.DeepEqual(got, want) {
				observedDiffer++
			}
		}
	}
	t.Logf("%d scripts: a client compacting on receipt differs in %d raw, %d observably", scripts, rawDiffer, observedDiffer)
	if rawDiffer-observedDiffer == 0 {
		t.Fatalf("no script where compacting on receipt changes only the raw registers: the canonical-store profile shows nothing")
	}
}
