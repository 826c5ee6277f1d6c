package mutants

import (
	"reflect"
	"unsafe"

	"github.com/nip-rs/harness/model"
)

// A mutant is a rule set with some decisions replaced. When the control's
// run of a check never asked a replaced decision, or asked it only
// questions the mutant's replacement answers the same way, the mutant's
// run of that check is the control's run step for step: every decision
// before the first one that differs is the same, and there is none. The
// gate then takes the control's finding (nothing caught, the same work)
// instead of running the check again; this file decides when that holds.
//
// It rests on three properties of the checks and the rules, stated here
// because the decision is only as good as they are:
//   - A check consults the rule set under test only through its function
//     fields and its Tie; Name only labels output. (No check keeps results
//     across runs, so each run asks its decisions afresh.)
//   - A check's run is deterministic: the set of decisions it asks does not
//     depend on scheduling (the explorer's and cubes' results do not depend
//     on the worker count).
//   - A rule is a function of its arguments: no state, no side effects, no
//     change to what it is handed. A shadowed replacement (trace.go) is
//     asked the same questions as the rule during the control's run.

// ruleField is one leaf of model.Rules (nested SlotRules and LoadRules
// included): its path for messages, its index for reflect, and whether it
// is a function (a decision) or data (Name, Tie).
type ruleField struct {
	path  string
	index []int
	fn    bool
}

// ruleFields are the leaves of model.Rules, in declaration order.
var ruleFields = leaves(reflect.TypeFor[model.Rules](), "", nil)

func leaves(t reflect.Type, prefix string, index []int) []ruleField {
	var out []ruleField
	for i := range t.NumField() {
		sf := t.Field(i)
		idx := append(append([]int(nil), index...), i)
		path := prefix + sf.Name
		switch sf.Type.Kind() {
		case reflect.Struct:
			out = append(out, leaves(sf.Type, path+".", idx)...)
		default:
			out = append(out, ruleField{path: path, index: idx, fn: sf.Type.Kind() == reflect.Func})
		}
	}
	return out
}

// ruleDiff is what a rule set changes of a base: the function fields whose
// value is not the base's (by ruleFields index), and whether nothing else
// differs (Name aside).
type ruleDiff struct {
	changed []int
	// decidable is false when a data field (Tie, or anything a future
	// Rules holds that is not a function) differs: every check reads it,
	// so no run can be taken from the control's.
	decidable bool
}

// diffRules compares run with base field by field. Function values are
// compared by identity (the closure a func value points to): the same
// closure is the same decision, and a different one is taken as changed
// even if it decides alike, which only costs a run.
func diffRules(base, run *model.Rules) ruleDiff {
	d := ruleDiff{decidable: true}
	b, r := reflect.ValueOf(base).Elem(), reflect.ValueOf(run).Elem()
	for i, f := range ruleFields {
		bv, rv := b.FieldByIndex(f.index), r.FieldByIndex(f.index)
		switch {
		case f.fn:
			if funcIdentity(bv) != funcIdentity(rv) {
				d.changed = append(d.changed, i)
			}
		case f.path == "Name":
		case !reflect.DeepEqual(bv.Interface(), rv.Interface()):
			d.decidable = false
		}
	}
	return d
}

// funcIdentity is the closure an addressable func value points to (nil
// for a nil func). reflect's Pointer gives only the code, which closures
// of one literal share whatever they captured.
func funcIdentity(v reflect.Value) unsafe.Pointer {
	return *(*unsafe.Pointer)(v.Addr().UnsafePointer())
}

// controlTrace is what the control's run of one check asked of its rules:
// which function fields it called, and for each shadowed mutant (by id)
// the fields at which every answer of the mutant's replacement equalled
// the rule's.
type controlTrace struct {
	reached []bool            // by ruleFields index
	agreed  []map[string]bool // by ruleFields index: shadowed mutant ids that never differed
}

// unchanged reports whether a mutant whose rules differ from the control's
// by d runs this check exactly as the control ran it: every changed field
// was never called, or was shadowed for this mutant and never answered
// differently.
func (t *controlTrace) unchanged(id string, d ruleDiff) bool {
	if t == nil || !d.decidable {
		return false
	}
	for _, i := range d.changed {
		if t.reached[i] && !t.agreed[i][id] {
			return false
		}
	}
	return true
}
