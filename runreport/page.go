package runreport

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/candidate"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
	"github.com/nip-rs/harness/witnesshtml"
)

// Page is witnesses as one page (package witnesshtml): rs holds what
// replaying each found (nil for one a run found itself, rendered by
// render as it was then), and verdicts what the run said of each ("" for
// the witness's own verdict). Each says what its run changed from the
// production rules (Changes); a walk's witness also draws the walk.
func Page(ws []*witnessfile.Witness, rs []*witnessfile.Replayed, verdicts []string, render func(*witnessfile.Witness) (string, error)) (witnesshtml.Page, error) {
	p := witnesshtml.Page{}
	for i, w := range ws {
		var text string
		var found []string
		if i < len(rs) && rs[i] != nil {
			text, found = rs[i].Text, rs[i].Found
		} else {
			t, err := render(w)
			if err != nil {
				return p, err
			}
			text = t
		}
		pw := witnesshtml.FromWitness(w, text, found)
		if i < len(verdicts) && verdicts[i] != "" {
			pw.Verdict = verdicts[i]
		}
		pw.Changed = Changes(w)
		if w.Kind == history.KindHistory {
			if rules, ok := mutants.HistoryRuleSet(w.Rules); ok {
				if v, err := history.Trace(w, rules); err == nil {
					pw.Walk = v
				}
			}
		}
		p.Witnesses = append(p.Witnesses, pw)
	}
	p.Title = pageTitle(p.Witnesses)
	return p, nil
}

// pageTitle names what the page shows: its one witness's kind and
// invariant, or how many witnesses.
func pageTitle(ws []witnesshtml.Witness) string {
	if len(ws) == 1 {
		return fmt.Sprintf("%s witness: %s", kindName(ws[0].Kind), ws[0].Invariant)
	}
	return fmt.Sprintf("%d witnesses", len(ws))
}

// kindName says what produced a witness of kind k.
func kindName(k string) string {
	switch k {
	case witnessfile.KindExplore:
		return "explorer"
	case witnessfile.KindDirected:
		return "directed check"
	case witnessfile.KindLoad:
		return "full-state load"
	case history.KindHistory:
		return "history walk"
	}
	return k
}

// Changes says what differs from the production rules in the run a
// witness names: a mutant applied to a universe's device ("ceiling+M3")
// or named as the rule set, an amendment, or a named rule set of the
// layer the witness's kind runs (the core's model.Rules, the walk's
// history.Rules, the community's community.Rules), said against that
// layer's production rules; then the wire encoding and the tie policy the
// run used, when it names them.
func Changes(w *witnessfile.Witness) []string {
	var out []string
	if base, id, ok := strings.Cut(w.Universe, "+"); ok {
		if m, found := mutants.Lookup(id); found {
			out = append(out, fmt.Sprintf("mutant %s on device d0 only, in universe %s: d0 drops the rule \u201c%s\u201d (%s); every other device runs rules %s, so the devices disagree wherever the dropped rule would have kept them together", m.ID, base, m.Rule, m.Section, w.Rules),
				whereChanged(m, "d0's "))
		}
	}
	switch m, isMutant := mutants.Lookup(w.Rules); {
	case isMutant:
		out = append(out, fmt.Sprintf("mutant %s: it drops the rule \u201c%s\u201d (%s)", m.ID, m.Rule, m.Section), whereChanged(m, ""))
	default:
		if a, ok := amendments.Lookup(w.Rules); ok {
			out = append(out, fmt.Sprintf("amendment %s: %s (%s); why: %s", a.Name, a.Title, a.Section, a.Rationale))
		} else if len(out) == 0 {
			out = append(out, namedRules(w.Kind, w.Rules))
		}
	}
	if w.Encoding != "" {
		out = append(out, candidate.Describe(w.Encoding))
	}
	if w.Tie != "" {
		out = append(out, "the run's tie policy: "+w.Tie+"-wins")
	}
	return out
}

// namedRules says what a named rule set is, in the layer a witness of
// kind runs: the walk's rules for the walk's witnesses, the community
// mechanisms' for the community's, the core's for every other. Each
// layer's production rule set is "nothing" changed; any other is said
// with the constructor that builds it.
func namedRules(kind, name string) string {
	switch kind {
	case history.KindHistory, history.KindWalkLiveness:
		switch name {
		case "proposed":
			return "nothing: rules proposed, the walk's production rules (history.Proposed)"
		case "healing":
			return "rules healing: the walk with the fix the document names (a bridge out of budget records the region it left) (history.Healing), not the walk's production rules (history.Proposed)"
		case "spec":
			return "rules spec: the walk as community-history-sync.md states it (history.Spec), not the walk's production rules (history.Proposed)"
		}
		return "rules " + name + ": a rule set of the walk (history.Rules), not its production rules (history.Proposed)"
	case mutants.KindCommunity, mutants.KindCommunityLiveness:
		switch name {
		case "rekey-heal":
			return "nothing: rules rekey-heal, the community mechanisms' production rules (community.Heal: the text's rules with the fixes for the epochs universe's findings)"
		case "spec":
			return "rules spec: the community mechanisms as community-history-sync.md states them (community.Spec), not their production rules (community.Heal, rules rekey-heal)"
		}
		return "rules " + name + ": a rule set of the community mechanisms (community.Rules), not their production rules (community.Heal)"
	}
	switch p, without := strings.CutPrefix(name, model.ProposedName+"-without-"); {
	case name == model.ProposedName:
		return "nothing: rules proposed, the production rules (model.Proposed)"
	case name == "spec":
		return "rules spec: NIP-RS.md as written (model.Spec), without the proposals the production rules add (model.Proposed)"
	case without:
		return "rules " + name + ": the production rules less proposal " + p + " (model.Without)"
	}
	return "rules " + name + ": a rule set of the core (model.Rules), not the production rules (model.Proposed)"
}

// whereChanged says which rule fields the mutant replaces, so a reader
// knows where its change is: the core's rules, the walk's or the
// community mechanisms' (each mutant changes one layer).
func whereChanged(m mutants.Mutant, whose string) string {
	kind := "model.Rules"
	switch {
	case m.Change.History != nil:
		kind = "history.Rules"
	case m.Change.Community != nil:
		kind = "community.Rules"
	}
	return fmt.Sprintf("what the mutant changes: %s%s.%s", whose, kind, strings.Join(m.ChangedFields(), ", "+kind+"."))
}
