package model

// LoadRules holds the full-state load's decision points (Full-State Load).
type LoadRules struct{}

func specLoadRules() LoadRules { return LoadRules{} }
