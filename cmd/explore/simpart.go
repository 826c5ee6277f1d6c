package main

import (
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// CheckPart is cli.Part's check of one simulation part against its run
// line (exhaustive.SimDoc.CheckPart), whose names resolve as -universe,
// -tie and -rules do.
func (d *simDoc) CheckPart() error {
	return d.SimDoc.CheckPart(cat, func(universe, tie, rules string) (exhaustive.Universe, []model.TiePolicy, *model.Rules, error) {
		return runInputs(&options{universe: universe, tie: tie, rules: rules})
	})
}
