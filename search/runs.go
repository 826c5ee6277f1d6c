package search

import (
	"fmt"

	"github.com/nip-rs/harness/internal/offheap"
)

// The runs store (Config.Runs) keeps the visited set on disk as sorted
// files, so a search is bounded by disk, not memory. Duplicates are
// detected once per level instead of at every successor:
//
//   - expanding level d streams its file and buffers every enabled
//     successor (row, parent, transition), keeping the smallest (parent,
//     transition) of a row buffered twice; a full buffer is sorted by
//     (hash, row) and written as a run file;
//   - at the end of the level the runs are merged with the visited file
//     (every state of depth at most d, in the same order): a row already
//     visited is dropped, a new one keeps the smallest (parent,
//     transition) of all its candidates, and the merge writes the next
//     visited file;
//   - the new states are then sorted by (parent, transition), through
//     more runs when they do not fit the buffer: that is the order in
//     which the in-memory store numbers them (generation order), so level
//     d+1's file holds the same states under the same indices.
//
// Every count, PerDepth and witness is therefore the in-memory store's.
// Keys stay exact: rows are compared word for word, the hash only orders
// them. The level files also hold each state's parent and transition, read
// back at random only to rebuild a trace (Store.Path, Store.Row).

// DefaultRunsMemory is the buffer budget of the runs store when
// Config.RunsMemory is 0.
const DefaultRunsMemory = 1 << 30

// checkRunsConfig refuses a runs store configuration that cannot work.
func checkRunsConfig(cfg *Config) error {
	if cfg.RunsMemory < 0 {
		return fmt.Errorf("runs store buffer of %d bytes: want 0 (the default) or more", cfg.RunsMemory)
	}
	return nil
}

// runsStore is the runs store's files and buffer.
type runsStore struct {
	dir   string
	width int
	lay   recLayout // the layout new files get: wide enough for every row seen
	mem   *offheap.Arena
	buf   *runBuffer
	// levels[k] holds the states of depth k in index order, from base[k].
	levels  []*runFile
	base    []int
	visited *runFile
	// files counts the files created, runs and levels alike.
	files int
	// disk is the bytes the store's files hold, peak the most they held.
	disk, peak int64
}

func newRunsStore(width int, dir string, budget int64) *runsStore {
	if budget <= 0 {
		budget = DefaultRunsMemory
	}
	mem := &offheap.Arena{}
	return &runsStore{dir: dir, width: width, lay: newLayout(width), mem: mem, buf: newRunBuffer(width, budget, mem)}
}

// create opens a new run file with the current layout, for about expect
// records (0: many).
func (rs *runsStore) create(expect int) (*runFile, error) {
	rs.files++
	return createRunFile(rs.dir, rs.lay, expect)
}

// account records that a file was written (or, with a negative size,
// dropped), for the peak disk use.
func (rs *runsStore) account(bytes int64) {
	rs.disk += bytes
	rs.peak = max(rs.peak, rs.disk)
}

func (rs *runsStore) drop(f *runFile) {
	if f != nil && f.f != nil {
		rs.account(-f.bytes())
		f.close()
	}
}

// level is the level holding state i and i's place in it.
func (rs *runsStore) level(i int) (*runFile, int) {
	k := len(rs.base) - 1
	for k > 0 && rs.base[k] > i {
		k--
	}
	return rs.levels[k], i - rs.base[k]
}

// rowInto reads state i into buf and returns its parent and transition. A
// read error of a file the store holds open is a failure of the machine.
func (rs *runsStore) rowInto(i int, buf []int32) (int32, uint16) {
	f, j := rs.level(i)
	p, t, err := f.readAt(j, buf)
	if err != nil {
		panic("search: " + err.Error())
	}
	return p, t
}

func (rs *runsStore) ref(i int) (int32, uint16) {
	return rs.rowInto(i, make([]int32, rs.width))
}

// close releases every file and the buffer.
func (rs *runsStore) close() {
	for _, f := range rs.levels {
		f.close()
	}
	rs.visited.close()
	rs.mem.FreeAll()
}
