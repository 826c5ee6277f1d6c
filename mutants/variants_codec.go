package mutants

import (
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// Reading is a rule set that is not a mutant: another reading of a spec
// sentence that a spec author may want to run the checks with. Readings
// are catalogued beside the mutants (cmd/explore -rules <name>), but the
// gate does not run them and no check is expected to catch them.
type Reading struct {
	Name    string
	Section string
	Rules   func() *model.Rules
}

// Readings lists every reading, in name order.
func Readings() []Reading {
	return []Reading{
		// "integer" read as the value (the production TypeScript client)
		// rather than the literal (NOTE.md, "Integer literals").
		{Name: model.ByValueIntegersName, Section: "Content Validation; Wire Encoding", Rules: model.ByValueIntegers},
		// The 10,000-entry limit counts distinct keys rather than the
		// members as written (Content Validation).
		{Name: model.DistinctKeyLimitName, Section: "Content Validation", Rules: model.DistinctKeyLimit},
		// A connection lost after the fence is established fails the
		// load, rather than lapsing its fence (Full-State Load, step 8).
		{Name: model.FenceLapseFailsName, Section: "Full-State Load, step 8", Rules: model.FenceLapseFails},
		// A key that is not valid UTF-8 discards the whole event rather
		// than its entry (Content Validation; Blob Format).
		{Name: model.UTF8DiscardsEventName, Section: "Content Validation; Blob Format", Rules: model.UTF8DiscardsEvent},
	}
}

// LookupReading is the reading named name.
func LookupReading(name string) (Reading, bool) {
	for _, r := range Readings() {
		if r.Name == name {
			return r, true
		}
	}
	return Reading{}, false
}

// registerReadings adds every reading to a catalogue, under its name.
func registerReadings(cat *exhaustive.Catalog) {
	for _, r := range Readings() {
		cat.AddRules(r.Name, r.Rules)
	}
}
