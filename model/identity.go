package model

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nbd-wtf/go-nostr"
)

// Self is an installation's identity and the coordinates it writes: its
// client_id, its primary slot id and the slot ids of its additional
// frontier-only coordinates (d Tag).
type Self struct {
	ClientID   string
	Primary    string
	Additional []string
}

// ErrBadClientID: a client_id must be 1-64 UTF-8 characters (Content).
var ErrBadClientID = errors.New("client_id is not 1-64 UTF-8 characters")

func validClientID(id string) bool {
	n := utf8.RuneCountInString(id)
	return n > 0 && n <= MaxClientIDChars && utf8.ValidString(id)
}

// Validate checks the client_id and that every slot id is well-formed and
// used once.
func (s Self) Validate() error {
	if !validClientID(s.ClientID) {
		return fmt.Errorf("%w: %q", ErrBadClientID, s.ClientID)
	}
	if !ValidSlotID(s.Primary) {
		return fmt.Errorf("primary: %w: %q", ErrBadSlotID, s.Primary)
	}
	for i, a := range s.Additional {
		if !ValidSlotID(a) {
			return fmt.Errorf("additional coordinate %d: %w: %q", i, ErrBadSlotID, a)
		}
		if a == s.Primary || slices.Contains(s.Additional[:i], a) {
			return fmt.Errorf("slot id %s used twice", a)
		}
	}
	return nil
}

// owns reports whether slot is the primary or a known additional slot.
func (s Self) owns(slot string) bool {
	return slot == s.Primary || slices.Contains(s.Additional, slot)
}

// FetchedBlob is one version of a coordinate as one relay returned it,
// after ParseEvent. Versions whose event authenticated but whose content is
// unusable (ParseEvent failed with ErrDecrypt or ErrContent) are kept with
// Err set: they still occupy the coordinate, so their created_at bounds the
// next publish there, but they are never merged. FetchEvent builds one.
type FetchedBlob struct {
	Relay     string
	Slot      string
	CreatedAt int64
	ID        string
	Blob      Blob
	Err       error
}

// FetchEvent parses ev from relay into a FetchedBlob. ok is false when the
// event is not a version of one of the user's read-state coordinates at all
// (wrong kind, author or tags, oversized, bad id or signature); such an
// event must simply be ignored.
func FetchEvent(rules *Rules, k *SelfKeys, relay string, ev *nostr.Event, maxEventBytes int) (FetchedBlob, bool) {
	slot, b, _, err := ParseEvent(rules, k, ev, maxEventBytes)
	if err != nil && !errors.Is(err, ErrDecrypt) && !errors.Is(err, ErrContent) {
		return FetchedBlob{}, false
	}
	return FetchedBlob{Relay: relay, Slot: slot, CreatedAt: int64(ev.CreatedAt), ID: ev.ID, Blob: b, Err: err}, true
}

// newer orders versions of one coordinate: greater created_at first, then
// the lexicographically lowest id (the addressable ordering of NIP-01).
func newer(a, b FetchedBlob) int {
	return cmp.Or(cmp.Compare(b.CreatedAt, a.CreatedAt), strings.Compare(a.ID, b.ID))
}

// BlobRole is what a fetched blob is to this installation (Fetching,
// Writing).
type BlobRole uint8

const (
	// RolePeer: another installation's blob; merged, never written.
	RolePeer BlobRole = iota
	// RoleOwn: this client_id at the own primary: the own blob.
	RoleOwn
	// RoleOwnAdditional: this client_id at a known additional coordinate.
	RoleOwnAdditional
	// RoleConflict: another client_id at one of the own coordinates; the
	// client must not publish there and must choose a new slot id.
	RoleConflict
	// RoleOrphan: this client_id at an unknown coordinate (a rotation orphan
	// or a restored duplicate); merged as a peer, never published to, and a
	// live carrier of override state until carried forward.
	RoleOrphan
	// RoleUnreadable: the version authenticated but its content is
	// unusable; it is not merged and has no client_id.
	RoleUnreadable
)

var blobRoleNames = [...]string{"peer", "own", "own-additional", "conflict", "orphan", "unreadable"}

func (r BlobRole) String() string { return blobRoleNames[r] }

// BlobRoles lists every BlobRole in order (the vectors' vocabulary is
// generated from it).
func BlobRoles() []BlobRole { return enumerate[BlobRole](len(blobRoleNames)) }

// blobRoleOf is the production identification rule (d Tag, Fetching,
// Writing).
func blobRoleOf(self Self, slot, clientID string) BlobRole {
	same := clientID == self.ClientID
	switch {
	case slot == self.Primary && same:
		return RoleOwn
	case self.owns(slot) && same:
		return RoleOwnAdditional
	case self.owns(slot):
		return RoleConflict
	case same:
		return RoleOrphan
	}
	return RolePeer
}

// Identity is the identification of a set of fetched versions.
type Identity struct {
	// Roles holds the role of each fetched version, by index.
	Roles []BlobRole
	// Own is the index of the own blob (the newest version at the primary
	// holding this client_id), or -1.
	Own int
	// Reference is Own when there is one; otherwise the newest version
	// holding this client_id anywhere (Fetching step 3), or -1.
	Reference int
	// Conflicted lists, sorted, the own slot ids found holding another
	// client_id.
	Conflicted []string
	// Orphans lists, sorted, the unknown slot ids holding this client_id.
	Orphans []string
}

// PrimaryConflicted reports whether the primary slot must be replaced.
func (id Identity) PrimaryConflicted(self Self) bool {
	_, found := slices.BinarySearch(id.Conflicted, self.Primary)
	return found
}

// Identify classifies every fetched version through rules.Slots.Role.
func Identify(rules *Rules, self Self, fetched []FetchedBlob) Identity {
	id := Identity{Roles: make([]BlobRole, len(fetched)), Own: -1, Reference: -1}
	for i, f := range fetched {
		if f.Err != nil {
			id.Roles[i] = RoleUnreadable
			continue
		}
		role := rules.Slots.Role(self, f.Slot, f.Blob.ClientID)
		id.Roles[i] = role
		switch role {
		case RoleOwn:
			if id.Own < 0 || newer(f, fetched[id.Own]) < 0 {
				id.Own = i
			}
		case RoleConflict:
			id.Conflicted = append(id.Conflicted, f.Slot)
		case RoleOrphan:
			id.Orphans = append(id.Orphans, f.Slot)
		}
		if f.Blob.ClientID == self.ClientID && (id.Reference < 0 || newer(f, fetched[id.Reference]) < 0) {
			id.Reference = i
		}
	}
	if id.Own >= 0 {
		id.Reference = id.Own
	}
	id.Conflicted = sortedUnique(id.Conflicted)
	id.Orphans = sortedUnique(id.Orphans)
	return id
}

func sortedUnique(ss []string) []string {
	slices.Sort(ss)
	return slices.Compact(ss)
}

// ResolveConflicts returns self with every conflicted coordinate given up
// (d Tag): a conflicted primary is replaced by a fresh slot id from newSlot,
// a conflicted additional coordinate is dropped (it is another
// installation's now; the split allocates new ones as needed).
func ResolveConflicts(self Self, id Identity, newSlot func() (string, error)) (Self, error) {
	out := Self{ClientID: self.ClientID, Primary: self.Primary}
	if id.PrimaryConflicted(self) {
		s, err := freshSlot(self, id.Conflicted, newSlot)
		if err != nil {
			return self, err
		}
		out.Primary = s
	}
	for _, a := range self.Additional {
		if _, bad := slices.BinarySearch(id.Conflicted, a); !bad {
			out.Additional = append(out.Additional, a)
		}
	}
	return out, nil
}

// freshSlot draws a slot id that is valid and not already in use by self or
// in avoid.
func freshSlot(self Self, avoid []string, newSlot func() (string, error)) (string, error) {
	if newSlot == nil {
		newSlot = NewSlotID
	}
	for range 8 {
		s, err := newSlot()
		if err != nil {
			return "", err
		}
		if ValidSlotID(s) && !self.owns(s) && !slices.Contains(avoid, s) {
			return s, nil
		}
	}
	return "", errors.New("slot id source keeps returning unusable ids")
}

// OwnFilter is the read-before-write filter: the user's kind 30078 events at
// the installation's own d tags, primary first (Read-Before-Write). It is
// not a full-state load and cannot discover orphans.
func OwnFilter(pubkey string, self Self) nostr.Filter {
	ds := []string{DTag(self.Primary)}
	for _, a := range self.Additional {
		ds = append(ds, DTag(a))
	}
	return nostr.Filter{
		Kinds:   []int{KindReadState},
		Authors: []string{pubkey},
		Tags:    nostr.TagMap{"d": ds},
	}
}

// publishTime is the production clock-skew rule (Clock Skew): the local
// clock, unless a fetched version at the same d tag is at least as new, in
// which case one second past the newest such version (saturating).
func publishTime(now, maxFetched int64, fetched bool) int64 {
	if !fetched || maxFetched < now {
		return now
	}
	if maxFetched == math.MaxInt64 {
		return maxFetched
	}
	return maxFetched + 1
}

// CreatedAtFor is the created_at of the next publish at slot through
// rules.Slots.CreatedAt, over every fetched version at that slot (unusable
// ones included: they occupy the coordinate too).
func CreatedAtFor(rules *Rules, now int64, fetched []FetchedBlob, slot string) int64 {
	var maxSeen int64
	seen := false
	for _, f := range fetched {
		if f.Slot == slot && (!seen || f.CreatedAt > maxSeen) {
			maxSeen, seen = f.CreatedAt, true
		}
	}
	return rules.Slots.CreatedAt(now, maxSeen, seen)
}

// Covers reports whether carried carries forward every override register
// of old (Client-ID Rotation, carry-forward rule): for each register old
// holds, joining it into carried's register changes nothing carried would
// publish, so old can go without any component being lost. Liveness is
// evaluated at carried's frontier for the context, under rules.Tie.
func Covers(rules *Rules, old, carried Blob) bool {
	od := Decode(rules, Raw(old.Contexts))
	if len(od.Overrides) == 0 {
		return true
	}
	cd := Decode(rules, Raw(carried.Contexts))
	regs := make(map[string]Reg, len(cd.Overrides))
	for _, o := range cd.Overrides {
		regs[o.Ctx] = o.Reg
	}
	front := make(map[string]uint32, len(cd.Frontiers))
	for _, f := range cd.Frontiers {
		front[f.Ctx] = f.Value
	}
	for _, o := range od.Overrides {
		n, f := regs[o.Ctx], front[o.Ctx]
		j := rules.Join(o.Reg, n)
		cj, sj := rules.Canonical(j, f, rules.IsLive(j, f))
		cn, sn := rules.Canonical(n, f, rules.IsLive(n, f))
		if sj != sn || cj != cn {
			return false
		}
	}
	return true
}

// CarriesOverrides reports whether a blob holds any ov_* entry.
func CarriesOverrides(rules *Rules, b Blob) bool {
	for _, e := range b.Contexts {
		if kind, _ := rules.GroupKey(e.Key); kind != KeyFrontier {
			return true
		}
	}
	return false
}

// CoordKind is what a coordinate is to the deletion rule (Orphaned Blob
// Deletion).
type CoordKind uint8

const (
	// CoordPrimary: the current primary, the live carrier of override
	// state. Never deleted.
	CoordPrimary CoordKind = iota
	// CoordAdditional: a known own additional coordinate (frontier-only).
	CoordAdditional
	// CoordPredecessor: a coordinate of this installation's previous
	// identity (the old primary or old additional coordinates of a
	// rotation).
	CoordPredecessor
	// CoordOrphan: an unknown coordinate holding this client_id, or one
	// whose content cannot be read: a live carrier until carried forward.
	CoordOrphan
	// CoordPeer: another installation's coordinate. Never deleted.
	CoordPeer
)

func (k CoordKind) String() string {
	return [...]string{"primary", "additional", "predecessor", "orphan", "peer"}[k]
}

// Deletion refusals. Test with errors.Is.
var (
	ErrNotOwn      = errors.New("coordinate belongs to another installation")
	ErrLiveCarrier = errors.New("coordinate is the current primary")
	ErrNotCarried  = errors.New("override state not carried forward and accepted on this relay")
)

// DeleteFacts is what the deletion rule decides on, for one coordinate on
// one relay.
type DeleteFacts struct {
	Kind CoordKind
	// Overrides: the version on this relay carries ov_* entries, or cannot
	// be read.
	Overrides bool
	// Carried: a carry-forward that Covers this version was accepted on
	// this relay.
	Carried bool
	// Complete: a complete full-state load stands behind the decision.
	Complete bool
}

// mayDeleteCoordinate is the production deletion rule (Client-ID Rotation,
// Orphaned Blob Deletion): nothing without a complete full-state load; never
// the current primary nor another installation's coordinate; a frontier-only
// own or predecessor coordinate freely; an orphan, and anything carrying
// ov_* entries, only once a carry-forward covering it was accepted on that
// very relay. An orphan counts as a carrier whatever it appears to hold: the
// installation's record of its own coordinates may be stale.
func mayDeleteCoordinate(f DeleteFacts) error {
	if !f.Complete {
		return ErrLoadIncomplete
	}
	switch f.Kind {
	case CoordPrimary:
		return ErrLiveCarrier
	case CoordPeer:
		return ErrNotOwn
	case CoordAdditional, CoordPredecessor:
		if !f.Overrides {
			return nil
		}
	}
	if !f.Carried {
		return ErrNotCarried
	}
	return nil
}

// DeleteDecision is the deletion verdict for one coordinate on one relay:
// Err nil means a deletion request may be sent there.
type DeleteDecision struct {
	Relay, Slot string
	Kind        CoordKind
	Err         error
}

// DeletionInput is what PlanDeletion decides from.
type DeletionInput struct {
	Self Self
	// Predecessor is this installation's previous identity, if it rotated
	// (RotationPlan.Old): its coordinates are predecessors while they still
	// hold its client_id.
	Predecessor Self
	// Fetched is a complete full-state load's versions, per relay.
	Fetched []FetchedBlob
	// Carried is the carry-forward blob published under the current
	// primary, and Accepted the relays that accepted it.
	Carried  Blob
	Accepted map[string]bool
	// Complete: the load behind Fetched was complete on every relay.
	Complete bool
}

// PlanDeletion decides, for the newest version of every fetched coordinate
// on every relay, whether it may be deleted there, through
// rules.Slots.MayDelete. Decisions are sorted by slot, then relay.
func PlanDeletion(rules *Rules, in DeletionInput) []DeleteDecision {
	latest := map[[2]string]FetchedBlob{}
	for _, f := range in.Fetched {
		k := [2]string{f.Slot, f.Relay}
		if cur, ok := latest[k]; !ok || newer(f, cur) < 0 {
			latest[k] = f
		}
	}
	keys := make([][2]string, 0, len(latest))
	for k := range latest {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]string) int {
		return cmp.Or(strings.Compare(a[0], b[0]), strings.Compare(a[1], b[1]))
	})
	out := make([]DeleteDecision, 0, len(keys))
	for _, k := range keys {
		f := latest[k]
		facts := DeleteFacts{Kind: coordKind(in, f), Complete: in.Complete}
		if f.Err != nil {
			facts.Overrides = true
		} else {
			facts.Overrides = CarriesOverrides(rules, f.Blob)
			facts.Carried = in.Accepted[f.Relay] && Covers(rules, f.Blob, in.Carried)
		}
		out = append(out, DeleteDecision{Relay: f.Relay, Slot: f.Slot, Kind: facts.Kind, Err: rules.Slots.MayDelete(facts)})
	}
	return out
}

func coordKind(in DeletionInput, f FetchedBlob) CoordKind {
	// A version holding the previous client_id at a slot the predecessor
	// record does not know is an orphan of this installation too.
	same := f.Err == nil && (f.Blob.ClientID == in.Self.ClientID ||
		in.Predecessor.ClientID != "" && f.Blob.ClientID == in.Predecessor.ClientID)
	switch {
	case f.Slot == in.Self.Primary:
		return CoordPrimary
	case in.Predecessor.owns(f.Slot) && (f.Err != nil || f.Blob.ClientID == in.Predecessor.ClientID):
		return CoordPredecessor
	case slices.Contains(in.Self.Additional, f.Slot) && same:
		return CoordAdditional
	case slices.Contains(in.Self.Additional, f.Slot):
		return CoordPeer // a conflicted additional slot: another installation's now
	case same || f.Err != nil:
		return CoordOrphan
	}
	return CoordPeer
}
