package model

import "fmt"

// PlannedEvent is one event a plan writes: BuildEvent(keys, Slot,
// CreatedAt, Blob) makes it.
type PlannedEvent struct {
	Slot      string
	CreatedAt int64
	Blob      Blob
	Primary   bool
}

// Split deals the replica's canonical candidate into coordinates under
// budget (SplitBlob).
func (r *Replica) Split(budget Budget) (SplitPlan, error) {
	return SplitBlob(r.Rules, r.Candidate(), budget, r.Parent)
}

// PublishSplit is Publish for a split publication: it splits the candidate
// and records the union of what the coordinates carry as the last
// publication. On error nothing is recorded and the last publication stands
// (Bounds and Budget: the last-published primary stays in place, nothing
// truncated is published).
func (r *Replica) PublishSplit(budget Budget) (SplitPlan, error) {
	sp, err := r.Split(budget)
	if err != nil {
		return SplitPlan{}, err
	}
	r.recordPublished(sp)
	return sp, nil
}

func (r *Replica) recordPublished(sp SplitPlan) {
	r.last = sp.Entries()
	r.published = true
}

// NeedsRepublishEvicted is the re-publish decision with the eviction policy
// applied first (Eviction, Live Subscription and Convergence): the
// canonical candidate is split under budget, evictions included, and
// rules.Slots.Republish compares what would be published with the last
// publication. A merged entry that eviction drops, such as a dominated child
// entry a peer still carries, therefore never triggers a write by itself.
// When the candidate cannot be split (ErrOverrideBudget) there is nothing
// publishable and the error is returned.
func (r *Replica) NeedsRepublishEvicted(budget Budget) (bool, error) {
	cand := r.Candidate()
	sp, err := SplitBlob(r.Rules, cand, budget, r.Parent)
	if err != nil {
		return false, err
	}
	return r.Rules.Slots.Republish(cand.Contexts, sp.Entries(), r.last), nil
}

// CheckBudget reports whether the replica's merged state can be published
// under budget. While it cannot, override actions fail (Bounds and Budget,
// terminal behaviour at the ceiling).
func (r *Replica) CheckBudget(budget Budget) error {
	_, err := r.Split(budget)
	return err
}

// MarkUnreadBudgeted is MarkUnread refused, with the replica unchanged, when
// the resulting state cannot be published: the primary cannot hold every
// override group even with all prunable frontier entries evicted (Bounds and
// Budget). The error then wraps ErrOverrideBudget.
func (r *Replica) MarkUnreadBudgeted(ctx string, budget Budget) error {
	trial := r.Clone()
	if err := trial.MarkUnread(ctx); err != nil {
		return err
	}
	if err := trial.CheckBudget(budget); err != nil {
		return fmt.Errorf("mark-unread %q refused: %w", ctx, err)
	}
	r.ents = trial.ents
	return nil
}

// MarkReadBudgeted is MarkRead reported as failed when the resulting state
// cannot be published; the frontier advance stands either way, the counter
// update only on success.
func (r *Replica) MarkReadBudgeted(ctx string, ts uint32, budget Budget) error {
	trial := r.Clone()
	if err := trial.MarkRead(ctx, ts); err != nil {
		r.ents = trial.ents // MarkRead keeps the counters and the advance on failure
		return err
	}
	if err := trial.CheckBudget(budget); err != nil {
		r.Advance(ctx, ts)
		return fmt.Errorf("mark-read %q failed: %w", ctx, err)
	}
	r.ents = trial.ents
	return nil
}

// WriteInput is what a read-before-write publish plan is made from.
type WriteInput struct {
	Self Self
	// Fetched holds the versions fetched before writing: at least the own
	// coordinates from every relay written to (OwnFilter), or a full-state
	// load.
	Fetched []FetchedBlob
	Now     int64
	Budget  Budget
	// Complete: a complete full-state load on every relay written to stands
	// behind Fetched. Without it no override state is published.
	Complete bool
	// LoadRunning: the client's own full-state load is in progress, so
	// nothing may be published to its own coordinates (Full-State Load).
	LoadRunning bool
	// NewSlot draws slot ids (nil: NewSlotID).
	NewSlot func() (string, error)
}

// PublishPlan is the outcome of a read-before-write.
type PublishPlan struct {
	// Self is the installation's coordinates after the plan (a replaced
	// primary, the additional slots in use).
	Self Self
	// Events are written in order, the primary first.
	Events []PlannedEvent
	// Delete lists own additional coordinates the split no longer uses and
	// the deletion rule allows to delete (frontier-only).
	Delete []string
	// Evicted is what the split left out.
	Evicted  []Eviction
	Identity Identity
}

// PlanPublish is read-before-write (Read-Before-Write, Fetching, Writing,
// Clock Skew): it identifies the fetched versions, gives up conflicted
// coordinates, merges every readable version into the replica, splits the
// canonical candidate and assigns the coordinates their slot ids and
// created_at values. It records the split as the last publication.
//
// It publishes nothing, and leaves the last publication in place, while the
// client's own load runs (ErrLoadInProgress), when override state is
// involved (in the candidate or the last publication) without a complete
// full-state load (ErrLoadIncomplete: the write is deferred), or when the
// override groups do not fit the primary (ErrOverrideBudget). Except during
// the own load, the merge has happened anyway: merging is always safe.
func (r *Replica) PlanPublish(in WriteInput) (PublishPlan, error) {
	if in.Self.ClientID != r.ClientID {
		return PublishPlan{}, fmt.Errorf("plan publish: self is client %q, replica is %q", in.Self.ClientID, r.ClientID)
	}
	if err := in.Self.Validate(); err != nil {
		return PublishPlan{}, fmt.Errorf("plan publish: %w", err)
	}
	if in.LoadRunning {
		return PublishPlan{}, fmt.Errorf("plan publish: %w", ErrLoadInProgress)
	}
	id := Identify(r.Rules, in.Self, in.Fetched)
	self, err := ResolveConflicts(in.Self, id, in.NewSlot)
	if err != nil {
		return PublishPlan{}, err
	}
	r.mergeFetched(in.Fetched)
	cand := r.Candidate()
	if !r.Legacy && !in.Complete && (CarriesOverrides(r.Rules, cand) || CarriesOverrides(r.Rules, Blob{Contexts: r.last})) {
		return PublishPlan{}, fmt.Errorf("publish deferred: override state without a complete full-state load: %w", ErrLoadIncomplete)
	}
	sp, err := SplitBlob(r.Rules, cand, in.Budget, r.Parent)
	if err != nil {
		return PublishPlan{}, fmt.Errorf("publish withheld, last publication kept: %w", err)
	}
	plan := PublishPlan{Evicted: sp.Evicted, Identity: id}
	plan.Events, plan.Self, err = assignSlots(r.Rules, self, sp, in.Fetched, in.Now, in.NewSlot)
	if err != nil {
		return PublishPlan{}, err
	}
	// Own additional coordinates beyond what the split uses.
	used := len(sp.Blobs) - 1
	if len(plan.Self.Additional) > used {
		keep := plan.Self.Additional[:used:used]
		for _, slot := range plan.Self.Additional[used:] {
			facts := DeleteFacts{Kind: CoordAdditional, Overrides: versionsCarryOverrides(r.Rules, in.Fetched, slot), Complete: in.Complete}
			if r.Rules.Slots.MayDelete(facts) == nil {
				plan.Delete = append(plan.Delete, slot)
			} else {
				keep = append(keep, slot)
			}
		}
		plan.Self.Additional = keep
	}
	r.recordPublished(sp)
	return plan, nil
}

func (r *Replica) mergeFetched(fetched []FetchedBlob) {
	for _, f := range fetched {
		if f.Err == nil {
			r.Receive(f.Blob)
		}
	}
}

// versionsCarryOverrides reports whether any fetched version at slot
// carries ov_* entries or cannot be read.
func versionsCarryOverrides(rules *Rules, fetched []FetchedBlob, slot string) bool {
	for _, f := range fetched {
		if f.Slot == slot && (f.Err != nil || CarriesOverrides(rules, f.Blob)) {
			return true
		}
	}
	return false
}

// assignSlots gives split blob i the primary (i == 0) or the i-th additional
// slot id, drawing new ones as needed, and its created_at.
func assignSlots(rules *Rules, self Self, sp SplitPlan, fetched []FetchedBlob, now int64, newSlot func() (string, error)) ([]PlannedEvent, Self, error) {
	out := Self{ClientID: self.ClientID, Primary: self.Primary, Additional: append([]string(nil), self.Additional...)}
	evs := make([]PlannedEvent, len(sp.Blobs))
	for i, b := range sp.Blobs {
		slot := out.Primary
		if i > 0 {
			if i-1 == len(out.Additional) {
				s, err := freshSlot(out, nil, newSlot)
				if err != nil {
					return nil, self, err
				}
				out.Additional = append(out.Additional, s)
			}
			slot = out.Additional[i-1]
		}
		evs[i] = PlannedEvent{Slot: slot, CreatedAt: CreatedAtFor(rules, now, fetched, slot), Blob: b, Primary: i == 0}
	}
	return evs, out, nil
}

// RotationInput is what a client-id rotation is planned from.
type RotationInput struct {
	Self        Self
	NewClientID string
	// Fetched is a complete full-state load.
	Fetched  []FetchedBlob
	Now      int64
	Budget   Budget
	Complete bool
	// LoadRunning: the client's own full-state load is in progress.
	LoadRunning bool
	NewSlot     func() (string, error)
}

// RotationPlan is a client-id rotation (Client-ID Rotation).
type RotationPlan struct {
	Old, New Self
	// Events carry the whole merged state forward under the new primary
	// (and new additional coordinates if the split needs them).
	Events  []PlannedEvent
	Evicted []Eviction
}

// PlanRotation rotates the replica to a new client_id and a fresh primary
// slot id, carrying forward every register the old primary holds, floors
// included: it merges the full-state load, splits the state under the new
// identity and checks that the new primary Covers every readable version of
// the old primary and the last publication. The old coordinates are not
// touched here: once the new events were accepted, PlanDeletion with
// Predecessor = plan.Old decides, relay by relay, what may go. It refuses
// without a complete full-state load; on any error the replica is
// unchanged apart from the merge.
func (r *Replica) PlanRotation(in RotationInput) (RotationPlan, error) {
	if r.Legacy {
		return RotationPlan{}, ErrLegacy
	}
	if in.LoadRunning {
		return RotationPlan{}, fmt.Errorf("rotation: %w", ErrLoadInProgress)
	}
	if !in.Complete {
		return RotationPlan{}, fmt.Errorf("rotation: %w", ErrLoadIncomplete)
	}
	if in.Self.ClientID != r.ClientID {
		return RotationPlan{}, fmt.Errorf("rotation: self is client %q, replica is %q", in.Self.ClientID, r.ClientID)
	}
	if err := in.Self.Validate(); err != nil {
		return RotationPlan{}, fmt.Errorf("rotation: %w", err)
	}
	if !validClientID(in.NewClientID) || in.NewClientID == r.ClientID {
		return RotationPlan{}, fmt.Errorf("rotation to %q: %w (and must differ from the current one)", in.NewClientID, ErrBadClientID)
	}
	r.mergeFetched(in.Fetched)
	trial := r.Clone()
	trial.ClientID = in.NewClientID
	sp, err := trial.Split(in.Budget)
	if err != nil {
		return RotationPlan{}, fmt.Errorf("rotation: %w", err)
	}
	olds := []Blob{{Contexts: r.last}}
	for _, f := range in.Fetched {
		if f.Err == nil && f.Slot == in.Self.Primary && f.Blob.ClientID == in.Self.ClientID {
			olds = append(olds, f.Blob)
		}
	}
	for _, old := range olds {
		if !Covers(r.Rules, old, sp.Blobs[0]) {
			return RotationPlan{}, fmt.Errorf("rotation: new primary does not carry the old primary's registers: %w", ErrNotCarried)
		}
	}
	primary, err := freshSlot(in.Self, nil, in.NewSlot)
	if err != nil {
		return RotationPlan{}, err
	}
	next := Self{ClientID: in.NewClientID, Primary: primary}
	evs, next, err := assignSlots(r.Rules, Self{ClientID: next.ClientID, Primary: next.Primary, Additional: nil}, sp, in.Fetched, in.Now, avoiding(in.Self, in.NewSlot))
	if err != nil {
		return RotationPlan{}, err
	}
	r.ClientID = in.NewClientID
	r.recordPublished(sp)
	return RotationPlan{Old: in.Self, New: next, Events: evs, Evicted: sp.Evicted}, nil
}

// avoiding wraps a slot source so that it never returns one of old's slots.
func avoiding(old Self, newSlot func() (string, error)) func() (string, error) {
	return func() (string, error) { return freshSlot(old, nil, newSlot) }
}
