package search

// Unit is what an invariant's checked count counts (states, transitions,
// registers, ...). A World names its units (World.Units) and reports how
// many of each its checks examined (Tally.Add); every invariant's checked
// count is the count of its unit.
type Unit uint8

// MaxUnits bounds the units a World may name.
const MaxUnits = 16

// Invariant is one row of a World's invariant table: the single place an
// invariant is declared. Its index in the table is what a Finding refers
// to, and the table order is the precedence that breaks ties between
// violations found at the same step.
type Invariant struct {
	// ID is the name witnesses, JSON and -replay use ("I2-convergence").
	ID string
	// Label is its number in the formal note's tables ("I2", "N3").
	Label string
	// Doc says in one line what must hold.
	Doc string
	// Unit is what its checked count counts.
	Unit Unit
	// Section is the spec section (or formal-note entry) it checks.
	Section string
}

// Finding is one violated invariant, by its index in the World's table,
// with what was observed.
type Finding struct {
	Inv    int
	Detail string
}

// Index returns the index of the invariant whose ID is id, or -1.
func Index(table []Invariant, id string) int {
	for i, inv := range table {
		if inv.ID == id {
			return i
		}
	}
	return -1
}
