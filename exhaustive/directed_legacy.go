package exhaustive

func legacyChecks() []*Directed { return nil }
