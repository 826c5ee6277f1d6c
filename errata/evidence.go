package errata

import (
	"fmt"
	"strings"
	"sync"

	entries "github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/vectors/gen"
)

// Evidence runs the finding's check under its fix at the bounds stated
// and says what it found: the bounded evidence that the fix closes the
// hole, or, where it does not, what remains. Nothing here is quoted from
// an earlier run.
func Evidence(f Finding) (string, error) {
	switch f.Layer {
	case LayerModel:
		cat := catalog()
		u, err := cat.Universe(f.Where)
		if err != nil {
			return "", err
		}
		var parts []string
		for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
			res, err := exhaustive.Explore(exhaustive.Config{Universe: u, Depth: u.Depth, Rules: model.Proposed().WithTie(tie)})
			if err != nil {
				return "", err
			}
			parts = append(parts, fmt.Sprintf("%s-wins %s states, %s", tie, num.Commas(int64(res.Distinct)), statusText(res)))
		}
		return fmt.Sprintf("`explore -universe %s` under proposed, depth %d, every invariant checked at every state: %s.", f.Where, u.Depth, strings.Join(parts, "; ")), nil
	case LayerLoad:
		w, err := props.Search(props.SearchConfig{Check: props.CheckSoundness, Rules: model.Proposed(), Profile: f.Where, Cases: LoadCases, Seed: LoadSeed})
		if err != nil {
			return "", err
		}
		if w == nil {
			return fmt.Sprintf("The load's soundness search under proposed over the `%s` relay: no false complete in %s scenarios (seed %d).",
				f.Where, num.Commas(int64(LoadCases)), LoadSeed), nil
		}
		return fmt.Sprintf("The proposal narrows the hole and does not close it: under proposed the soundness search over `%s` still finds, in %d steps, %q. The rest is the relay's: see relay-fresh-answers.",
			f.Where, len(w.Steps), w.Violation), nil
	case LayerRelay:
		r := relaySearch()
		profiles, w, err := r.profiles, r.w, r.err
		if err != nil {
			return "", err
		}
		if w != nil {
			return fmt.Sprintf("UNKNOWN: over the relays that meet every requirement the search still finds %q (%s).", w.Violation, w.Config.Profile), nil
		}
		return fmt.Sprintf("The proposed rules alone do not defend: the witness fails under proposed too. Over the relay profiles the gate searches (`%s`), the load under proposed: no false complete in %s scenarios each (seed %d). Client defence: %s.",
			strings.Join(profiles, "`, `"), num.Commas(int64(LoadCases)), LoadSeed, f.Defence), nil
	case LayerRelax:
		var parts []string
		for _, rules := range []*model.Rules{model.Spec(), model.Proposed()} {
			for _, check := range []string{props.CheckSoundness, props.CheckQuiescent} {
				w, err := props.Search(props.SearchConfig{Check: check, Rules: rules, Profile: f.Where, Cases: relaxCases, Seed: LoadSeed})
				if err != nil {
					return "", err
				}
				found := "nothing"
				if w != nil {
					found = "VIOLATED: " + w.Violation
				}
				parts = append(parts, fmt.Sprintf("%s %s: %s", rules.Name, check, found))
			}
		}
		return fmt.Sprintf("The load's searches over `%s`, %s scenarios each (seed %d): %s. The probe reports the clause as `%s`; the gate still requires it, as a stopgap until the load survives the delete-then-save race (NOTE.md, \"Conformance matrix\").",
			f.Where, num.Commas(int64(relaxCases)), LoadSeed, strings.Join(parts, "; "), model.ReqTieOrder), nil
	case LayerClarify:
		return clarifyEvidence(f)
	case LayerHistory:
		u, ok := historyVariant(f.Where)
		if !ok {
			return "", fmt.Errorf("%s: no walk variant %q", f.ID, f.Where)
		}
		rules := history.RuleSets()[f.FixRules()]()
		out, err := history.Explore(u, rules, history.ReportAll, 0, false)
		if err != nil {
			return "", err
		}
		found := "no invariant violated"
		if len(out.Violations) > 0 {
			found = fmt.Sprintf("VIOLATED: %v", out.Violations)
		}
		return fmt.Sprintf("`explore -universe walk -variant %s -rules %s`, depth %d: %s states, %s.", f.Where, f.FixRules(), u.Depth, num.Commas(int64(out.Distinct)), found), nil
	case LayerCommunity:
		// The catalogue's run of the universe, as the explorer makes it:
		// under the proposed rules (the community layer's are rekey-heal,
		// which heal both known findings, so none is left out).
		e, err := entries.Lookup(f.Where)
		if err != nil || e.Layer != ruleset.LayerCommunity {
			return "", fmt.Errorf("%s: no community universe %q", f.ID, f.Where)
		}
		rules := ruleset.Proposed()
		if name := rules.Community.Name; name != community.Heal().Name {
			return "", fmt.Errorf("%s: the proposed community rules are %s, not rekey-heal", f.ID, name)
		}
		res, err := e.Explore(rules, entries.Bound{})
		if err != nil {
			return "", err
		}
		found := "no invariant violated"
		if res.Invariant != "" {
			found = "VIOLATED: " + res.Invariant
		}
		return fmt.Sprintf("The %s community universe under rekey-heal, depth %d: %s states, %s.", f.Where, res.Depth, num.Commas(int64(res.Distinct)), found), nil
	}
	return "", fmt.Errorf("%s: unknown layer %q", f.ID, f.Layer)
}

// relaySearch is the search every relay finding's evidence rests on:
// the load's soundness search under proposed over the gate's relay
// profiles. Its inputs name no finding, so every relay finding gets the
// same answer; it runs once per process and the findings share it (the
// witness is only read).
var relaySearch = sync.OnceValue(func() relayResult {
	profiles := props.GateProfiles(props.CheckSoundness)
	w, err := props.SearchProfiles(props.SearchConfig{Check: props.CheckSoundness, Rules: model.Proposed(), Cases: LoadCases, Seed: LoadSeed}, profiles)
	return relayResult{profiles, w, err}
})

type relayResult struct {
	profiles []string
	w        *props.Witness
	err      error
}

// loadVectors is the load vector file every clarification's evidence
// decides under its own rule set: it depends on no finding, so it is
// generated once per process (the checks only read it).
var loadVectors = sync.OnceValues(func() (gen.File, error) {
	k, ok := gen.KindByName("load")
	if !ok {
		return gen.File{}, fmt.Errorf("no load vector kind")
	}
	return gen.Generate(k)
})

// relaxCases is how many scenarios a relaxation's searches draw (props'
// TestTieOrderIsNotNeeded draws as many).
const relaxCases = 5000

func statusText(r *exhaustive.Result) string {
	switch r.Status {
	case exhaustive.StatusOK:
		return "no violation"
	case exhaustive.StatusViolation:
		return "VIOLATED: " + r.Witness.Invariant
	}
	return "UNKNOWN (a bound was hit: " + r.BoundHit + ")"
}

// clarifyEvidence measures a clarification: the load's soundness search
// over the gate's relays and its quiescent check over the conformant one,
// under proposed with this proposal alone left out (the text's reading of
// the decision in an otherwise fixed client), and the load vectors the
// two readings decide differently. A search that finds a violation is an
// error: the proposal is then a fix, and needs a witness.
func clarifyEvidence(f Finding) (string, error) {
	without, ok := model.Without(f.ID)
	if !ok {
		return "", fmt.Errorf("%s: no proposal to leave out", f.ID)
	}
	var parts []string
	for _, check := range []string{props.CheckSoundness, props.CheckQuiescent} {
		profiles := props.GateProfiles(check)
		w, err := props.SearchProfiles(props.SearchConfig{Check: check, Rules: without, Cases: LoadCases, Seed: LoadSeed}, profiles)
		if err != nil {
			return "", err
		}
		if w != nil {
			return "", fmt.Errorf("%s: under %s the %s search over %s finds %q: a fix, not a clarification (file a witness)",
				f.ID, without.Name, check, w.Config.Profile, w.Violation)
		}
		parts = append(parts, fmt.Sprintf("%s over `%s`: nothing", check, strings.Join(profiles, "`, `")))
	}
	file, err := loadVectors()
	if err != nil {
		return "", fmt.Errorf("%s: %w", f.ID, err)
	}
	fails, err := gen.CheckWith(gen.RuleSet{Model: without, History: history.Spec()}, file)
	if err != nil {
		return "", err
	}
	ids := make([]string, len(fails))
	for i, x := range fails {
		ids[i] = "`" + x.ID + "`"
	}
	decided := "none"
	if len(ids) > 0 {
		decided = strings.Join(ids, ", ")
	}
	return fmt.Sprintf("Under `%s` (the text's reading of this decision, every other proposal kept), the load's searches, %s scenarios per relay (seed %d): %s. "+
		"The two readings decide %d of the %d load vectors differently (each names the proposal in its `proposals` member): %s.",
		without.Name, num.Commas(int64(LoadCases)), LoadSeed, strings.Join(parts, "; "), len(fails), len(file.Vectors), decided), nil
}
