package exhaustive

func publicationChecks() []*Directed { return nil }
