package main

// CheckPart is cli.Part's check of one simulation part against its run
// line (exhaustive.SimDoc.CheckPart), whose names resolve as -universe,
// -tie and -rules do.
func (d *simDoc) CheckPart() error {
	return d.SimDoc.CheckPart(cat, universes.OverrideInputs)
}
