package community

// NegOutcome is a relay's answer to a NIP-77 reconciliation.
type NegOutcome int

const (
	// NegSynced: the relay reconciled the whole region; its wraps are in.
	NegSynced NegOutcome = iota
	// NegUnsupported: the relay does not speak negentropy.
	NegUnsupported
	// NegFailed: the reconciliation failed (an error, a deadline).
	NegFailed
)

var negNames = [...]string{"synced", "unsupported", "failed"}

func (o NegOutcome) String() string { return negNames[o] }

// NegPath is what the catch-up does with a relay after its NIP-77 answer.
type NegPath int

const (
	// Reconciled: the relay's region is complete.
	Reconciled NegPath = iota
	// FallBack: run the paged walk against the relay.
	FallBack
	// RelayFailed: the relay failed; it blocks exhaustion.
	RelayFailed
)

func negentropy(o NegOutcome) NegPath {
	switch o {
	case NegSynced:
		return Reconciled
	case NegUnsupported:
		return FallBack
	}
	return RelayFailed
}

// NegRelay is one relay of a NIP-77 catch-up: what it holds (wrap ids),
// its NIP-77 answer, and whether the paged walk against it answers.
type NegRelay struct {
	Holds    []int
	Answer   NegOutcome
	Walkable bool
}

// CatchUp is a NIP-77 catch-up over relays: per relay the rules map the
// answer to a path; a reconciled relay's wraps are stored, a fallen-back
// relay is walked (its wraps stored when the walk answers, otherwise it
// failed). Exhausted is earned as in the walk: every relay read to the
// bottom, none failed, and at least one wrap fetched.
func CatchUp(r *Rules, relays []NegRelay) (stored map[int]bool, exhausted bool) {
	stored = map[int]bool{}
	complete := true
	for _, rl := range relays {
		switch r.Negentropy(rl.Answer) {
		case Reconciled:
			for _, id := range rl.Holds {
				stored[id] = true
			}
		case FallBack:
			if !rl.Walkable {
				complete = false
				continue
			}
			for _, id := range rl.Holds {
				stored[id] = true
			}
		default:
			complete = false
		}
	}
	return stored, complete && len(stored) > 0
}
