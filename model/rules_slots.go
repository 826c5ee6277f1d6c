package model

// SlotRules holds the decisions of slots and budget, event identity and
// writing, and the hierarchy rules eviction depends on (d Tag, Override
// Group Co-Location Rule, Bounds and Budget, Eviction, Clock Skew,
// Fetching, Orphaned Blob Deletion, Write Discipline). Every field is
// reached from a public entry point: SplitBlob, Replica.NeedsRepublishEvicted,
// Identify, CreatedAtFor, PlanDeletion and Replica.MarkChannelRead.
type SlotRules struct {
	// GroupOf names the logical group of a wire key from its classification
	// by Rules.GroupKey; a group is assigned to one coordinate whole.
	GroupOf func(wire string, kind KeyKind, raw string) string
	// Assign deals the groups (sorted by key) to coordinates: the result
	// holds one coordinate index per group, 0 being the primary.
	Assign func(groups []SlotGroup, c Capacity) ([]int, error)
	// Dominated decides whether a child frontier entry is inert given its
	// parent's effective frontier; resolved is false when the parent is
	// unknown.
	Dominated func(raw string, own, parent uint32, resolved bool) bool
	// EvictOrder says whether an entry may be evicted for the horizon or
	// the budget, and its class (lower goes first).
	EvictOrder func(c EvictCandidate) (class int, ok bool)
	// Republish is the re-publish trigger given the canonical candidate
	// before eviction, what the split would publish after eviction, and the
	// last publication (Live Subscription and Convergence rules 2-3,
	// Eviction). Replica.NeedsRepublish asks it with nothing evicted.
	Republish func(candidate, published, last []Entry) bool
	// CreatedAt is the created_at of a publish at a d tag given the local
	// clock and the newest fetched version there, if any.
	CreatedAt func(now, maxFetched int64, fetched bool) int64
	// Role identifies a fetched blob by its slot and client_id.
	Role func(self Self, slot, clientID string) BlobRole
	// MayDelete decides whether a coordinate may be deleted on a relay; nil
	// means yes.
	MayDelete func(f DeleteFacts) error
	// ChannelRead picks the timestamp a channel read advances the channel
	// context to from the channel's messages.
	ChannelRead func(msgs []ChannelMessage) (uint32, bool)
}

func specSlotRules() SlotRules {
	return SlotRules{
		GroupOf:     groupByContext,
		Assign:      dealGroups,
		Dominated:   dominatedChild,
		EvictOrder:  evictOrder,
		Republish:   republishAfterEviction,
		CreatedAt:   publishTime,
		Role:        blobRoleOf,
		MayDelete:   mayDeleteCoordinate,
		ChannelRead: channelReadTarget,
	}
}

// republishAfterEviction is the production re-publish trigger: the
// comparison runs on what would be published after eviction, so an incoming
// entry that eviction drops (a dominated child a peer still carries) never
// by itself forces a write (Eviction).
func republishAfterEviction(_, published, last []Entry) bool {
	return needsRepublish(published, last)
}
