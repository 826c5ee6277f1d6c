package exhaustive

func registerChecks() []*Directed { return nil }
