package exhaustive

func transportChecks() []*Directed { return nil }
