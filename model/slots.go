package model

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Split outcomes. Test with errors.Is.
var (
	// ErrOverrideBudget: the override-bearing groups alone do not fit in the
	// primary coordinate. They may not be split across coordinates and no
	// floor may be dropped to make room (Bounds and Budget, terminal
	// behaviour at the ceiling).
	ErrOverrideBudget = errors.New("override groups do not fit in the primary coordinate")
	// ErrCoordinateLimit: the frontier-only groups do not fit in the allowed
	// number of coordinates; the split evicts frontier entries and retries.
	ErrCoordinateLimit = errors.New("frontier groups exceed the coordinate limit")
	// ErrSplitOverflow: an assignment produced a blob over the budget.
	ErrSplitOverflow = errors.New("assigned coordinate exceeds the budget")
)

// SlotGroup is every wire entry of one logical context: the unit the split
// assigns, whole, to one coordinate (Override Group Co-Location Rule).
type SlotGroup struct {
	// Key is the group identity (the raw context id under the production
	// rules). Groups reach Assign sorted by Key.
	Key string
	// Entries are the group's wire entries, sorted by wire key.
	Entries []Entry
	// Override is set when the group carries ov_* entries; such a group may
	// live only in the primary coordinate.
	Override bool
	// Size is what the entries add to a blob's contexts map, each entry
	// counted with one separator (see Capacity).
	Size int
}

// Capacity is what Assign may fill.
type Capacity struct {
	// PerBlob is the room for entries in one coordinate: the blob capacity
	// minus the encoded size of an empty blob plus one, so that a blob whose
	// entries (each counted with its separator) sum to at most PerBlob is
	// within the budget.
	PerBlob int
	// MaxCoordinates bounds primary plus additional coordinates (0: none).
	MaxCoordinates int
	// MaxEntries bounds the entries of one coordinate.
	MaxEntries int
}

// dealGroups is the production assignment: every override-bearing group to
// the primary (coordinate 0), or ErrOverrideBudget when they do not fit
// there; then the frontier-only groups, in the order given, next-fit from
// the primary's remaining room onward. The result depends only on the
// groups and the capacity, so the same state always splits the same way.
func dealGroups(groups []SlotGroup, c Capacity) ([]int, error) {
	coord := make([]int, len(groups))
	used, count := 0, 0
	for _, g := range groups {
		if g.Override {
			used += g.Size
			count += len(g.Entries)
		}
	}
	if used > c.PerBlob || count > c.MaxEntries {
		return nil, fmt.Errorf("%w: %d bytes in %d entries, room for %d bytes and %d entries",
			ErrOverrideBudget, used, count, c.PerBlob, c.MaxEntries)
	}
	cur := 0
	for i, g := range groups {
		if g.Override {
			continue
		}
		if used+g.Size > c.PerBlob || count+len(g.Entries) > c.MaxEntries {
			cur, used, count = cur+1, 0, 0
			if c.MaxCoordinates > 0 && cur >= c.MaxCoordinates {
				return nil, fmt.Errorf("%w (%d)", ErrCoordinateLimit, c.MaxCoordinates)
			}
			if g.Size > c.PerBlob {
				return nil, fmt.Errorf("%w: group %q alone is %d bytes", ErrSplitOverflow, g.Key, g.Size)
			}
		}
		coord[i] = cur
		used += g.Size
		count += len(g.Entries)
	}
	return coord, nil
}

// groupByContext is the production group identity: the raw logical context
// the key classification yields, so a frontier wire key is unescaped before
// it is grouped with its override siblings (unescape-before-group).
func groupByContext(_ string, _ KeyKind, raw string) string { return raw }

// EvictCandidate describes one wire entry to the eviction rule.
type EvictCandidate struct {
	Wire  string
	Kind  KeyKind
	Raw   string // the raw context id
	Value uint32
	// Pinned is set when the entry's group carries ov_* entries.
	Pinned bool
}

// Eviction classes of the production order (lower is evicted first).
const (
	EvictClassMsg     = iota // msg:<hex64> frontier entries
	EvictClassThread         // thread:<hex64> frontier entries
	EvictClassContext        // every other frontier entry
)

// evictOrder is the production eviction rule (Override State Durability,
// Debounce and Pruning): ov_* entries are never evicted, nor the frontier
// entry of an override-bearing context, which travels with its group; other
// frontier entries are evictable, msg: before thread: before the rest. Within
// a class the split evicts the oldest value first.
func evictOrder(c EvictCandidate) (class int, ok bool) {
	if c.Kind != KeyFrontier || c.Pinned {
		return 0, false
	}
	switch ContextScheme(c.Raw) {
	case SchemeMsg:
		return EvictClassMsg, true
	case SchemeThread:
		return EvictClassThread, true
	}
	return EvictClassContext, true
}

// EvictReason says why an entry was left out of a publication.
type EvictReason uint8

const (
	EvictDominated EvictReason = iota // child entry covered by its channel (Eviction)
	EvictHorizon                      // older than the time horizon
	EvictBudget                       // evicted to fit the budget
)

var evictReasonNames = [...]string{"dominated", "horizon", "budget"}

func (r EvictReason) String() string { return evictReasonNames[r] }

// EvictReasons lists every EvictReason in order (the vectors' vocabulary
// is generated from it).
func EvictReasons() []EvictReason { return enumerate[EvictReason](len(evictReasonNames)) }

// Eviction is one entry left out of a publication.
type Eviction struct {
	Key    string
	Value  uint32
	Reason EvictReason
}

// SplitPlan is a candidate blob dealt into coordinates.
type SplitPlan struct {
	// Blobs[0] is the primary; Blobs[i] for i >= 1 go to additional,
	// frontier-only coordinates in order.
	Blobs []Blob
	// Evicted lists what was left out, sorted by key.
	Evicted []Eviction
}

// Entries is the union of the split's entries, sorted: what the split
// publishes, for the re-publish comparison.
func (s SplitPlan) Entries() []Entry {
	var es []Entry
	for _, b := range s.Blobs {
		es = append(es, b.Contexts...)
	}
	return SortEntries(es)
}

// slotItem is one wire entry during a split.
type slotItem struct {
	e       Entry
	kind    KeyKind
	raw     string
	group   int
	evicted bool
}

// SplitBlob deals a canonical candidate blob into coordinates through
// rules (d Tag, Override Group Co-Location Rule, Bounds and Budget, Eviction):
//
//  1. entries are grouped by rules.Slots.GroupOf of their classification;
//  2. dominated child frontier entries are evicted (rules.Slots.Dominated,
//     parents resolved by parent);
//  3. with a horizon, evictable entries older than it are evicted;
//  4. rules.Slots.Assign deals the groups; while it reports that the
//     frontier groups exceed the coordinate limit, evictable frontier-only
//     entries are evicted in rules.Slots.EvictOrder order (class, then
//     oldest value, then key); while it reports ErrOverrideBudget, only
//     evictable entries of override-bearing groups may go (under the
//     production rules there are none, so the error is terminal).
//
// Every resulting blob is checked with EncodedSize against the budget.
func SplitBlob(rules *Rules, b Blob, budget Budget, parent ParentResolver) (SplitPlan, error) {
	capBytes, err := budget.BlobCapacity()
	if err != nil {
		return SplitPlan{}, err
	}
	empty := EncodedSize(Blob{V: b.V, ClientID: b.ClientID})
	if empty > capBytes {
		return SplitPlan{}, fmt.Errorf("%w: an empty blob is %d bytes, capacity %d", ErrSplitOverflow, empty, capBytes)
	}
	c := Capacity{PerBlob: capBytes - empty + 1, MaxCoordinates: budget.MaxCoordinates, MaxEntries: budget.maxEntries()}

	items, groupKeys := slotItems(rules, b.Contexts)
	var evicted []Eviction
	evict := func(it *slotItem, why EvictReason) {
		it.evicted = true
		evicted = append(evicted, Eviction{it.e.Key, it.e.Value, why})
	}
	pinned := pinnedGroups(items, len(groupKeys))
	evictDominated(rules, items, parent, evict)
	if budget.Horizon > 0 {
		cutoff := budget.Now - budget.Horizon
		for i := range items {
			it := &items[i]
			if _, ok := rules.Slots.EvictOrder(it.candidate(pinned)); ok && !it.evicted && int64(it.e.Value) < cutoff {
				evict(it, EvictHorizon)
			}
		}
	}

	// Budget eviction candidates, in order, kept apart by the kind of group
	// they belong to: each error evicts only from its own kind.
	var queue [2][]int // [0] frontier-only groups, [1] override-bearing groups
	for _, i := range evictionOrder(rules, items, pinned) {
		if k := pinnedIndex(pinned[items[i].group]); !items[i].evicted {
			queue[k] = append(queue[k], i)
		}
	}
	for {
		groups := buildGroups(items, groupKeys, pinned)
		coord, err := rules.Slots.Assign(groups, c)
		if err == nil {
			return finishSplit(b, groups, coord, capBytes, c.MaxEntries, evicted)
		}
		overrides := errors.Is(err, ErrOverrideBudget)
		if !overrides && !errors.Is(err, ErrCoordinateLimit) {
			return SplitPlan{}, err
		}
		q := &queue[pinnedIndex(overrides)]
		if len(*q) == 0 {
			return SplitPlan{}, err
		}
		evict(&items[(*q)[0]], EvictBudget)
		*q = (*q)[1:]
		if !overrides {
			*q = evictToTotal(items, *q, c, evict)
		}
	}
}

func pinnedIndex(pinned bool) int {
	if pinned {
		return 1
	}
	return 0
}

// evictToTotal evicts frontier-only entries from the queue until all
// surviving entries could fit the coordinate limit at all, so that the
// one-at-a-time loop in SplitBlob only settles the packing slack. It returns
// the rest of the queue.
func evictToTotal(items []slotItem, queue []int, c Capacity, evict func(*slotItem, EvictReason)) []int {
	if c.MaxCoordinates <= 0 {
		return queue
	}
	total := 0
	for _, it := range items {
		if !it.evicted {
			total += slotEntrySize(it.e)
		}
	}
	room := c.MaxCoordinates * c.PerBlob
	for len(queue) > 0 && total > room {
		it := &items[queue[0]]
		total -= slotEntrySize(it.e)
		evict(it, EvictBudget)
		queue = queue[1:]
	}
	return queue
}

// slotItems classifies and groups the entries of a blob (sorted, unique).
func slotItems(rules *Rules, contexts []Entry) ([]slotItem, []string) {
	es := contexts
	for i := 1; i < len(es); i++ {
		if es[i-1].Key >= es[i].Key { // unsorted or duplicated: normalise a copy
			es = SortEntries(slices.Clone(es))
			break
		}
	}
	items := make([]slotItem, len(es))
	index := make(map[string]int, len(es))
	keys := make([]string, 0, len(es))
	for i, e := range es {
		kind, raw := rules.GroupKey(e.Key)
		g := rules.Slots.GroupOf(e.Key, kind, raw)
		gi, ok := index[g]
		if !ok {
			gi = len(keys)
			index[g] = gi
			keys = append(keys, g)
		}
		items[i] = slotItem{e: e, kind: kind, raw: raw, group: gi}
	}
	return items, keys
}

func pinnedGroups(items []slotItem, n int) []bool {
	pinned := make([]bool, n)
	for _, it := range items {
		if it.kind != KeyFrontier {
			pinned[it.group] = true
		}
	}
	return pinned
}

func (it *slotItem) candidate(pinned []bool) EvictCandidate {
	return EvictCandidate{Wire: it.e.Key, Kind: it.kind, Raw: it.raw, Value: it.e.Value, Pinned: pinned[it.group]}
}

// evictDominated drops child frontier entries whose value the parent's
// effective frontier already covers (Eviction). The frontier entry of an
// override-bearing child may go too: it is inert, and leaving it out moves
// nothing to another coordinate. ov_* entries are never considered.
func evictDominated(rules *Rules, items []slotItem, parent ParentResolver, evict func(*slotItem, EvictReason)) {
	if parent == nil {
		return // no parent resolves: nothing is dominated
	}
	own := make(map[string]uint32, len(items))
	for _, it := range items {
		if it.kind == KeyFrontier {
			own[it.raw] = max(own[it.raw], it.e.Value)
		}
	}
	frontier := func(ctx string) uint32 { return own[ctx] }
	for i := range items {
		it := &items[i]
		if it.kind != KeyFrontier {
			continue
		}
		var pv uint32
		p, ok := parent(it.raw)
		if ok {
			pv = Effective(frontier, parent, p)
		}
		if rules.Slots.Dominated(it.raw, it.e.Value, pv, ok) {
			evict(it, EvictDominated)
		}
	}
}

// evictionOrder lists the evictable items by (class, value, wire key).
func evictionOrder(rules *Rules, items []slotItem, pinned []bool) []int {
	type ranked struct{ i, class int }
	var rs []ranked
	for i := range items {
		if class, ok := rules.Slots.EvictOrder(items[i].candidate(pinned)); ok {
			rs = append(rs, ranked{i, class})
		}
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.class, b.class),
			cmp.Compare(items[a.i].e.Value, items[b.i].e.Value),
			strings.Compare(items[a.i].e.Key, items[b.i].e.Key))
	})
	out := make([]int, len(rs))
	for k, r := range rs {
		out[k] = r.i
	}
	return out
}

// buildGroups collects the surviving items into groups sorted by key.
func buildGroups(items []slotItem, keys []string, pinned []bool) []SlotGroup {
	gs := make([]SlotGroup, len(keys))
	for i, k := range keys {
		gs[i] = SlotGroup{Key: k, Override: pinned[i]}
	}
	// One backing array for every group's entries.
	counts := make([]int, len(keys))
	total := 0
	for _, it := range items {
		if !it.evicted {
			counts[it.group]++
			total++
		}
	}
	backing := make([]Entry, 0, total)
	for i, n := range counts {
		gs[i].Entries = backing[len(backing) : len(backing) : len(backing)+n]
		backing = backing[:len(backing)+n]
	}
	for _, it := range items {
		if it.evicted {
			continue
		}
		g := &gs[it.group]
		g.Entries = append(g.Entries, it.e)
		g.Size += slotEntrySize(it.e)
	}
	gs = slices.DeleteFunc(gs, func(g SlotGroup) bool { return len(g.Entries) == 0 })
	slices.SortFunc(gs, func(a, b SlotGroup) int { return strings.Compare(a.Key, b.Key) })
	return gs
}

func finishSplit(b Blob, groups []SlotGroup, coord []int, capBytes, maxEntries int, evicted []Eviction) (SplitPlan, error) {
	if len(coord) != len(groups) {
		return SplitPlan{}, fmt.Errorf("%w: %d assignments for %d groups", ErrSplitOverflow, len(coord), len(groups))
	}
	n := 1
	for _, c := range coord {
		if c < 0 {
			return SplitPlan{}, fmt.Errorf("%w: negative coordinate %d", ErrSplitOverflow, c)
		}
		n = max(n, c+1)
	}
	entries := make([][]Entry, n)
	for i, g := range groups {
		entries[coord[i]] = append(entries[coord[i]], g.Entries...)
	}
	sp := SplitPlan{Blobs: make([]Blob, n)}
	for i, es := range entries {
		blob := Blob{V: b.V, ClientID: b.ClientID, Contexts: SortEntries(es)}
		if size := EncodedSize(blob); size > capBytes || len(blob.Contexts) > maxEntries {
			return SplitPlan{}, fmt.Errorf("%w: coordinate %d is %d bytes in %d entries (capacity %d bytes, %d entries)",
				ErrSplitOverflow, i, size, len(blob.Contexts), capBytes, maxEntries)
		}
		sp.Blobs[i] = blob
	}
	slices.SortFunc(evicted, func(x, y Eviction) int { return strings.Compare(x.Key, y.Key) })
	sp.Evicted = evicted
	return sp, nil
}

// slotEntrySize is what one entry adds to an encoded contexts map: the
// quoted key, the colon, the value and one separator.
func slotEntrySize(e Entry) int {
	n := len(e.Key) + 2
	if !isPlainASCII(e.Key) {
		n = len(appendJSONString(nil, e.Key))
	}
	return n + 1 + decimalLen(e.Value) + 1
}

// decimalLen is the number of decimal digits of v.
func decimalLen(v uint32) int {
	n := 1
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}
