package model

// SlotRules holds the decisions of slot assignment and budget (d Tag,
// Override Group Co-Location Rule, Bounds and Budget).
type SlotRules struct{}

func specSlotRules() SlotRules { return SlotRules{} }
