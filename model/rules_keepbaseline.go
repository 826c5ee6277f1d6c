package model

// MarkUnreadKeepBaseline is mark-unread as a client that never lowers a
// stored baseline decides it: the spec's bump of the set counter, with
// B := max(oldB, F) instead of B := F (Actions, mark-unread). It is not
// the spec's rule; it is offered so the gate can be run with it (the
// b-max-frontier amendment) and as the catalogue's mutant M17.
func MarkUnreadKeepBaseline(g Reg, f uint32, _ bool) (Reg, error) {
	n, err := MarkUnreadReg(g, f)
	if err == nil {
		n.B = max(g.B, f)
	}
	return n, err
}
