package exhaustive

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nip-rs/harness/internal/offheap"
	"github.com/nip-rs/harness/model"
)

// table interns values of one kind by their exact byte key and gives each
// a dense id. Values live in fixed chunks that never move, so a reader
// holding an id (learned through the state store or a lock) reads its value
// without locking.
type table[T any] struct {
	mu     sync.Mutex
	ids    map[string]int32
	n      int32
	chunks [1 << 14]atomic.Pointer[[chunkSize]entry[T]]
}

const chunkSize = 1 << 12

type entry[T any] struct {
	val T
	key string
}

func newTable[T any]() *table[T] { return &table[T]{ids: map[string]int32{}} }

// intern returns the id of the value whose key is key, making it with mk
// when it is new.
func (t *table[T]) intern(key []byte, mk func() T) int32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[string(key)]; ok {
		return id
	}
	id := t.n
	c := t.chunks[id/chunkSize].Load()
	if c == nil {
		c = new([chunkSize]entry[T])
		t.chunks[id/chunkSize].Store(c)
	}
	k := string(key)
	c[id%chunkSize] = entry[T]{mk(), k}
	t.ids[k] = id
	t.n++
	return id
}

func (t *table[T]) at(id int32) *entry[T] { return &t.chunks[id/chunkSize].Load()[id%chunkSize] }
func (t *table[T]) get(id int32) T        { return t.at(id).val }
func (t *table[T]) key(id int32) string   { return t.at(id).key }

// know is one device's intent knowledge: per override context, the number
// of intent events it has made there (kept across a reinstall) and the
// antichain of the maximal events it knows.
type know struct {
	seq []uint8
	ac  []int32
}

// message is one coordinate part of a publication in flight.
type message struct {
	blob        int32 // engine blob id
	b           model.Blob
	part, parts uint8
	// tag carries, per override context, the sender's antichain at publish
	// time when this part holds the context's group (the primary when no
	// part does), and the empty antichain otherwise.
	tag []int32
	// flags: bit i is set when the destination compacted override context
	// i (changing its register) after this message was published.
	flags uint8
	// holds and floors: bit i when the blob carries a key of override
	// context i, and when that group is a lone tombstone floor.
	holds, floors uint8
}

// netTables are the network world's interned values.
type netTables struct {
	acs   *table[antichain]
	knows *table[know]
	msgs  *table[message]
	chans *table[[]int32] // message ids sorted by message key
	empty int32           // the empty antichain
	none  int32           // the empty channel
}

func newNetTables() *netTables {
	t := &netTables{acs: newTable[antichain](), knows: newTable[know](), msgs: newTable[message](), chans: newTable[[]int32]()}
	t.empty = t.internAC(nil)
	t.none = t.internChan(nil)
	return t
}

func (t *netTables) internAC(a antichain) int32 {
	return t.acs.intern(a.appendKey(nil), func() antichain { return a })
}

func (t *netTables) internKnow(k know) int32 {
	buf := append([]byte(nil), k.seq...)
	for _, a := range k.ac {
		buf = appendString(buf, t.acs.key(a))
	}
	return t.knows.intern(buf, func() know { return k })
}

// appendBlobBody is appendBlob without the client id (identity without
// noise: a message's sender is its channel).
func appendBlobBody(buf []byte, b model.Blob) []byte {
	buf = binary.AppendVarint(buf, int64(b.V))
	for _, en := range b.Contexts {
		buf = appendString(buf, en.Key)
		buf = binary.AppendUvarint(buf, uint64(en.Value))
	}
	return buf
}

func (t *netTables) internMsg(m message) int32 {
	return t.internMsgBody(m, appendBlobBody(nil, m.b))
}

// internMsgBody is internMsg with the blob's body key already encoded.
func (t *netTables) internMsgBody(m message, body []byte) int32 {
	buf := make([]byte, 0, len(body)+3+8*len(m.tag))
	buf = append(buf, body...)
	buf = append(buf, m.part, m.parts, m.flags)
	for _, a := range m.tag {
		buf = appendString(buf, t.acs.key(a))
	}
	return t.msgs.intern(buf, func() message { return m })
}

// internChan interns a channel, sorting its messages by key.
func (t *netTables) internChan(ms []int32) int32 {
	ms = slices.Clone(ms)
	slices.SortFunc(ms, func(a, b int32) int { return strings.Compare(t.msgs.key(a), t.msgs.key(b)) })
	ms = slices.Compact(ms)
	var buf []byte
	for _, m := range ms {
		buf = appendString(buf, t.msgs.key(m))
	}
	return t.chans.intern(buf, func() []int32 { return ms })
}

// netCache is one worker's memo of the network world's derived values;
// every entry is a function of interned ids, so workers agree on them.
type netCache struct {
	mem    *offheap.Arena           // the engine's: where the tables and arenas below live
	merge  map[[2]int32]int32       // (antichain, antichain)
	kmerge *u64map[step]            // (know, message) -> know, in step.next
	pub    map[[3]int32]publication // (dev, rep, know)
	flag   map[[2]int32]int32       // (channel, context)
	legacy map[int32]uint8          // legacy rep -> the live groups it rewrites
	reps   *tupleMap[int32]         // drained replicas -> the offset of their repsQuiet record
	// rqWords and rqFinds hold the repsQuiet records and their findings;
	// rqReps, rqMasks and rqBlobs are computeRepsQuiet's scratch.
	rqWords, rqReps, rqMasks, rqBlobs []int32
	rqFinds                           []finding
	// knRounds: (drained knowledge, roundsSig) -> the offset in knWords
	// of knowRounds' outcome and final knowledge; knKey and knScratch
	// are its scratch.
	knRounds                  *tupleMap[int32]
	knWords, knKey, knScratch []int32
	kjoin                     *u64map[int32]   // (know, know) -> their join (knowJoin)
	kevent                    *u64map[int32]   // knowEventKey -> knowledge after the event
	kreset                    *u64map[int32]   // knowledge -> knowledge after a reinstall
	chanAdd                   *tupleMap[int32] // (channel, message, message or -1) -> channel, or -1 when full
	chanDel                   *u64map[int32]   // (channel, position) -> channel without that message
	order                     *orderMemo       // where the delivery orders end
	facts                     [][]*repFacts    // per device, by replica id: what the replica alone decides
	sym                       *u64map[int32]   // symKey(kind, element, dev, id)
	repKey                    [][]string       // per device, by replica id ("" not yet known)
	symRow                    []int32          // canonical's scratch: the best image and the current one
	// check's scratch: the drained nodes, their replicas, the knowledge
	// of two rounds, and the quiescence result.
	drained   []node
	quietReps []int32
	quietKn   []int32
	quietRes  quietResult
}

// kmergeMemoSlots and pubMemoCap bound two of a worker's memos, caches of
// exact functions of interned ids, so that deep runs' memory is mostly the
// state store.
const (
	kmergeMemoSlots   = 1 << 18
	kjoinMemoSlots    = 1 << 16
	keventMemoSlots   = 1 << 16
	chanMemoCap       = 1 << 15
	knowRoundsMemoCap = 1 << 16
	pubMemoCap        = 1 << 14
)

// newNetCache is a worker's memos, their tables in mem (the engine's).
func newNetCache(n int, mem *offheap.Arena) *netCache {
	c := &netCache{
		mem:   mem,
		merge: map[[2]int32]int32{}, kmerge: newU64map[step](mem, kmergeMemoSlots),
		pub: map[[3]int32]publication{}, flag: map[[2]int32]int32{},
		legacy: map[int32]uint8{}, reps: newTupleMap[int32](mem, n, repsQuietMemoCap), knRounds: newTupleMap[int32](mem, n+1, knowRoundsMemoCap), kjoin: newU64map[int32](mem, kjoinMemoSlots),
		kevent: newU64map[int32](mem, keventMemoSlots), kreset: newU64map[int32](mem, keventMemoSlots), chanAdd: newTupleMap[int32](mem, 3, chanMemoCap), chanDel: newU64map[int32](mem, 2*chanMemoCap),
		order: newOrderMemo(), sym: newU64map[int32](mem, 0),
	}
	c.repKey = make([][]string, n)
	c.facts = make([][]*repFacts, n)
	return c
}

// node is one device's part of a global state: its replica and its intent
// knowledge.
type node struct{ rep, kn int32 }

// localEvent is the intent event a local transition makes, if any.
type localEvent struct {
	kind intentKind
	b    uint32
}

// publication is what publishing a device state puts in flight: one
// message per coordinate part, or the error the publication met.
type publication struct {
	msgs []int32
	err  string
	// shape is the N7 finding of the publication ("" if canonical).
	shape string
}
