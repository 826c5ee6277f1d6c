package model

import (
	"go/token"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// doorExempt names the exported functions a rule set of this package may
// hold in a Rules field, each with why it is exported. Every other
// decision a rule set wires must be unexported, so that outside this
// package the compiler admits no call that bypasses the Rules seam.
var doorExempt = map[string]string{
	"EscapeKey":   "codec helper: writing a frontier key by hand (vectors, fixtures sized to a budget)",
	"UnescapeKey": "codec helper: reading a frontier key by hand",
}

// namedRuleSets is every rule set the package constructs: the text, the
// proposed set, each proposal left out, and each other reading.
func namedRuleSets(t *testing.T) []*Rules {
	t.Helper()
	sets := []*Rules{Spec(), Proposed(), ByValueIntegers(), DistinctKeyLimit(), UTF8DiscardsEvent(), FenceLapseFails()}
	for _, p := range Proposals() {
		r, ok := Without(p.Name)
		if !ok {
			t.Fatalf("Without(%q) found no such proposal", p.Name)
		}
		sets = append(sets, r)
	}
	return sets
}

// TestRuleSetsWireNoExportedDecision: every function a rule set of this
// package holds is unexported (or a closure, which nothing outside can
// name), bar doorExempt. A decision exported again would let a caller
// decide without its rule set and silently stop following a mutant.
func TestRuleSetsWireNoExportedDecision(t *testing.T) {
	for _, r := range namedRuleSets(t) {
		if bad := exportedDecisions(reflect.ValueOf(r).Elem(), "Rules"); len(bad) > 0 {
			t.Errorf("%s wires exported decisions: %s", r.Name, strings.Join(bad, "; "))
		}
	}
}

// TestExportedDecisionsCatches proves the check fails on an exported
// function in a field, nested or not, and passes the exemptions.
func TestExportedDecisionsCatches(t *testing.T) {
	r := Spec()
	r.BadKeyDiscards = NeedsEscape
	r.Load.Passes = func(int) int { return 1 }
	r.Slots.Role = func(Self, string, string) BlobRole { return RolePeer }
	got := exportedDecisions(reflect.ValueOf(r).Elem(), "Rules")
	if want := []string{"Rules.BadKeyDiscards = NeedsEscape"}; !slices.Equal(got, want) {
		t.Errorf("exportedDecisions = %v, want %v", got, want)
	}
	r = Spec()
	r.Load.Retry = nil
	if got := exportedDecisions(reflect.ValueOf(r).Elem(), "Rules"); len(got) != 0 {
		t.Errorf("a nil field or an exempt helper flagged: %v", got)
	}
}

// exportedDecisions lists, in field order, every func field of v (a Rules
// or one of its nested rule structs) holding an exported top-level
// function of this package that doorExempt does not name.
func exportedDecisions(v reflect.Value, path string) []string {
	var out []string
	for i := range v.NumField() {
		f, name := v.Field(i), path+"."+v.Type().Field(i).Name
		switch f.Kind() {
		case reflect.Func:
			if f.IsNil() {
				continue
			}
			fn := topLevelName(runtime.FuncForPC(f.Pointer()).Name())
			if token.IsExported(fn) {
				if _, ok := doorExempt[fn]; !ok {
					out = append(out, name+" = "+fn)
				}
			}
		case reflect.Struct:
			out = append(out, exportedDecisions(f, name)...)
		}
	}
	return out
}

// topLevelName is the name of a top-level function of this package from
// its runtime name ("github.com/nip-rs/harness/model.joinReg"), or ""
// for a closure ("model.Spec.func1"), a method value or a function of
// another package, none of which a caller outside can name as a decision
// of this package.
func topLevelName(full string) string {
	rest, ok := strings.CutPrefix(full, "github.com/nip-rs/harness/model.")
	if !ok || strings.ContainsAny(rest, ".()") {
		return ""
	}
	return rest
}
