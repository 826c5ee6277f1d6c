package props_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
)

// diffCases bounds the difference searches here: enough for every pair
// below to find its difference (the latest is found at scenario 1,059 of
// the gate's profiles), a few seconds for a pair that differs nowhere.
const diffCases = 300

func without(t *testing.T, name string) *model.Rules {
	t.Helper()
	r, ok := model.Without(name)
	if !ok {
		t.Fatalf("no proposal %s", name)
	}
	return r
}

func diffSearch(t *testing.T, a, b *model.Rules, cases int) *props.DiffResult {
	t.Helper()
	res, err := props.DiffSearch(props.DiffConfig{A: a, B: b, Profiles: props.GateProfiles(props.CheckSoundness), Cases: cases, Seed: searchSeed})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The search's scenario for a source is a prefix of DrawScenario's for
// the same source: the difference search runs the scenarios the
// soundness search runs. Checked on the violations a rule set without
// the in-flight push rule exposes, where the soundness search stops
// drawing early.
func TestDrawScenarioIsTheSearchsScenario(t *testing.T) {
	rules := without(t, model.ProposalPushNotResult)
	prop, err := props.PropertyFor(props.CheckSoundness, rules, "conformant-query-push")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for c := 0; c < searchCases && seen < 3; c++ {
		wit, _, err := prop(props.NewSeeded(searchSeed, c))
		if err != nil {
			t.Fatal(err)
		}
		if wit == nil {
			continue
		}
		seen++
		cfg, steps := props.DrawScenario(props.NewSeeded(searchSeed, c), "conformant-query-push")
		if cfg != wit.Config || len(steps) < len(wit.Steps) || !reflect.DeepEqual(steps[:len(wit.Steps)], wit.Steps) {
			t.Errorf("case %d: the search ran %s %v, DrawScenario drew %s %v", c, wit.Config, wit.Steps, cfg, steps)
		}
	}
	if seen == 0 {
		t.Fatalf("no violation in %d cases: nothing compared", searchCases)
	}
}

// A rule set against itself differs nowhere; the text against the
// proposals, a reading of a lapsed fence, and the text's reading of a
// clarification ERRATA.md names (limit-judged-on-results) differ, and
// what the search reports is what the shrunk scenario shows when run
// again. The clarification the searches cannot reach (no scenario holds
// its relay unproven) differs nowhere, as ERRATA.md says.
func TestDiffSearch(t *testing.T) {
	same := diffSearch(t, model.Proposed(), model.Proposed(), diffCases)
	if same.Found != nil || same.Scenarios != diffCases*len(same.Profiles) {
		t.Errorf("proposed vs proposed: %d scenarios, found %+v", same.Scenarios, same.Found)
	}
	if r := diffSearch(t, model.Proposed(), without(t, model.ProposalUnproven), diffCases); r.Found != nil {
		t.Errorf("unproven-relay-not-complete: found %+v", r.Found)
	}
	for _, tc := range []struct {
		b    *model.Rules
		want string // a difference the search must report
	}{
		{model.Spec(), "load 1 retains "},
		{model.FenceLapseFails(), "load 1: verdict cannot-prove-complete (fence-lapsed) under proposed, failed (relay-failure) under fence-lapse-fails"},
		{without(t, model.ProposalLimitResults), "(non-conforming) under proposed-without-limit-judged-on-results"},
	} {
		r := diffSearch(t, model.Proposed(), tc.b, 1000)
		if r.Found == nil {
			t.Errorf("%s: no difference in %d scenarios", tc.b.Name, r.Scenarios)
			continue
		}
		f := r.Found
		if !slices.ContainsFunc(f.Differences, func(d string) bool { return strings.Contains(d, tc.want) }) {
			t.Errorf("%s: differences %q lack %q", tc.b.Name, f.Differences, tc.want)
		}
		_, drawn := props.DrawScenario(props.NewSeeded(searchSeed, f.Case), f.Config.Profile)
		if len(f.Steps) > len(drawn) || props.ValidateWitness(props.Witness{Check: props.CheckSoundness, Config: f.Config, Steps: f.Steps}) != nil {
			t.Errorf("%s: shrunk to %d steps from %d, or out of the generators' ranges: %v", tc.b.Name, len(f.Steps), len(drawn), f.Steps)
		}
		again, _, _, err := props.Differ(f.Config, model.Proposed(), tc.b, f.Steps)
		if err != nil || !slices.Equal(again, f.Differences) {
			t.Errorf("%s: run again the scenario shows %q (%v), the search reported %q", tc.b.Name, again, err, f.Differences)
		}
		// Shrinking kept a difference at every change: dropping any one
		// step of the result loses it or changes it.
		for i := range f.Steps {
			d, _, _, _ := props.Differ(f.Config, model.Proposed(), tc.b, slices.Delete(slices.Clone(f.Steps), i, i+1))
			if len(d) > 0 && len(f.Steps) > 1 {
				t.Errorf("%s: step %d (%s) can go and the rule sets still differ: %q", tc.b.Name, i+1, f.Steps[i], d)
			}
		}
	}
}

// CompareOutcomes names every user-visible difference, by load: a load
// started under one rule set only, a refusal, a load left without a
// verdict, a verdict or reason, a coordinate retained at another version
// or not at all; and nothing for two equal outcomes.
func TestCompareOutcomes(t *testing.T) {
	c1 := props.Coord{D: "read-state:1", ID: "aa", Label: "rs1@90/aa"}
	c1b := props.Coord{D: "read-state:1", ID: "bb", Label: "rs1@90/bb"}
	c2 := props.Coord{D: "read-state:2", ID: "cc", Label: "rs2@91/cc"}
	done := props.LoadOutcome{Verdict: model.Complete, Coords: []props.Coord{c1, c2}}
	if d := props.CompareOutcomes([]props.LoadOutcome{done}, []props.LoadOutcome{done}, "a", "b"); d != nil {
		t.Errorf("equal outcomes: %q", d)
	}
	for _, tc := range []struct {
		x, y []props.LoadOutcome
		want []string
	}{
		{[]props.LoadOutcome{done}, []props.LoadOutcome{{Verdict: model.CannotProveComplete, Reason: model.ReasonPlateau, Coords: []props.Coord{c1, c2}}},
			[]string{"load 1: verdict complete under a, cannot-prove-complete (plateau) under b"}},
		{[]props.LoadOutcome{done}, []props.LoadOutcome{{Verdict: model.Complete, Coords: []props.Coord{c1b}}},
			[]string{"load 1 retains rs1@90/aa under a, rs1@90/bb under b", "load 1 retains rs2@91/cc under a, nothing of that coordinate under b", "load 1: verdict complete under both"}},
		{[]props.LoadOutcome{{Refused: "no room"}}, []props.LoadOutcome{{Stuck: true}},
			[]string{"load 1: refused (no room) under a, no verdict (running with nothing left to exchange) under b"}},
		{[]props.LoadOutcome{done}, []props.LoadOutcome{done, done},
			[]string{"load 2: verdict complete under b; under a it never started (the load before it still ran)"}},
	} {
		if got := props.CompareOutcomes(tc.x, tc.y, "a", "b"); !slices.Equal(got, tc.want) {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// A difference witness replays under the rule sets it names and is
// reproduced only with the recorded differences; a file no search could
// have written is refused before anything runs.
func TestDiffWitness(t *testing.T) {
	r := diffSearch(t, model.Proposed(), model.FenceLapseFails(), diffCases)
	data := r.WitnessJSON()
	if data == nil {
		t.Fatal("no witness")
	}
	rules := func(name string) (*model.Rules, error) {
		switch name {
		case model.ProposedName:
			return model.Proposed(), nil
		case model.FenceLapseFailsName:
			return model.FenceLapseFails(), nil
		}
		return nil, errUnknown(name)
	}
	rep, err := props.ReplayDiff(data, rules)
	if err != nil || !rep.Reproduced || !strings.Contains(rep.Text, "under fence-lapse-fails:") {
		t.Fatalf("replay: %v, %+v", err, rep)
	}
	s := string(data)
	edit := func(from, to string) []byte {
		t.Helper()
		out := strings.Replace(s, from, to, 1)
		if out == s {
			t.Fatalf("the edit %q did not apply", from)
		}
		return []byte(out)
	}
	// The recorded differences, not the detail that repeats the first.
	i := strings.LastIndex(s, "under fence-lapse-fails\"")
	altered := s[:i] + "under fence-lapse-fails (altered)" + s[i+len("under fence-lapse-fails"):]
	rep, err = props.ReplayDiff([]byte(altered), rules)
	if err != nil || rep.Reproduced {
		t.Errorf("altered difference: reproduced %v, %v", rep != nil && rep.Reproduced, err)
	}
	for name, bad := range map[string][]byte{
		"unknown member":   edit(`"kind": "load-diff",`, `"kind": "load-diff", "extra": 1,`),
		"cap out of range": edit(`"cap": `, `"cap": 1`),
		"one rule set":     edit(`"other": "fence-lapse-fails"`, `"other": "proposed"`),
		"unknown rule set": edit(`"other": "fence-lapse-fails"`, `"other": "nonesuch"`),
		"no differences":   []byte(strings.Join(strings.SplitAfter(s, `"differences": [`)[:1], "") + "]}"),
		"passes":           edit(`"n": `, `"passes": 2, "n": `),
		"trailing data":    append(slices.Clone(data), []byte("{}")...),
	} {
		if _, err := props.ReplayDiff(bad, rules); err == nil {
			t.Errorf("%s: replayed", name)
		}
	}
}

type errUnknown string

func (e errUnknown) Error() string { return "unknown rule set " + string(e) }
