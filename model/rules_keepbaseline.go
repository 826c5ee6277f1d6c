package model

// MarkUnreadKeepBaseline is mark-unread as a client that never lowers a
// stored baseline decides it: the spec's bump of the set counter, with
// B := max(oldB, F) instead of B := F (Actions, mark-unread). It is not
// the spec's rule and no rule set of this package wires it; it is
// exported because it is a whole decision in the shape of Rules.MarkUnread
// that the gate installs there (the b-max-frontier amendment, the
// catalogue's mutant M17). Called directly it changes no replica: only a
// Rules value whose MarkUnread field holds it does.
func MarkUnreadKeepBaseline(g Reg, f uint32, _ bool) (Reg, error) {
	n, err := markUnreadReg(g, f)
	if err == nil {
		n.B = max(g.B, f)
	}
	return n, err
}
