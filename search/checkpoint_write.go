package search

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// checkpointer is a run's checkpoint state: the configuration, the level
// files written or loaded so far and the states per level.
type checkpointer struct {
	cfg      *Checkpoint
	identity []Field
	levels   []fileSum // two per depth: states, tables
	counts   []int
	// last is the manifest written or loaded last.
	last *manifest
}

// engineIdentity is what the engine itself contributes to a checkpoint's
// identity: the shape of the World and the settings that change results.
func (x *explorer[C]) engineIdentity() []Field {
	ids := make([]string, 0, x.ninv)
	for _, inv := range x.w.Invariants() {
		ids = append(ids, inv.ID)
	}
	return []Field{
		{"search.width", strconv.Itoa(x.w.Width())},
		{"search.transitions", strconv.Itoa(x.w.Transitions())},
		{"search.invariants", strings.Join(ids, ",")},
		{"search.units", strings.Join(x.w.Units(), ",")},
		{"search.por", strconv.FormatBool(x.red != nil)},
		{"search.terminal-only", strconv.FormatBool(x.cfg.TerminalOnly)},
		{"search.stop-at-first", strconv.FormatBool(x.cfg.StopAtFirst)},
	}
}

func (x *explorer[C]) newCheckpointer() *checkpointer {
	cp := x.cfg.Checkpoint
	return &checkpointer{cfg: cp, identity: append(slices.Clone(cp.Identity), x.engineIdentity()...)}
}

// saveCheckpoint writes the checkpoint of depth d, whose states are
// [lo, hi): the level's files, the boundary's, then the manifest; res
// holds the figures of the levels before d.
func (x *explorer[C]) saveCheckpoint(d, lo, hi int, res *Run) error {
	ck := x.ck
	dir := ck.cfg.Dir
	states, err := x.writeStates(d, lo, hi)
	if err != nil {
		return err
	}
	var e Enc
	if err := ck.cfg.Tables.AppendTables(&e); err != nil {
		return fmt.Errorf("checkpoint tables: %w", err)
	}
	tables, err := writeWhole(dir, levelFile(d, "tables"), e.B)
	if err != nil {
		return err
	}
	tally, err := writeWhole(dir, boundaryFile(d, "tally"), x.encodeBoundary(res.Checked))
	if err != nil {
		return err
	}
	files := append(slices.Clone(ck.levels), states, tables, tally)
	if x.red != nil {
		sleep, err := writeWhole(dir, boundaryFile(d, "sleep"), x.encodeSleep(hi-lo))
		if err != nil {
			return err
		}
		files = append(files, sleep)
	}
	m := manifest{Format: checkpointFormat, Identity: ck.identity, Depth: d, Levels: append(slices.Clone(ck.counts), hi-lo), Files: files}
	b, err := sealed(m)
	if err != nil {
		return err
	}
	if err := replaceFile(dir, manifestName, append(b, '\n')); err != nil {
		return fmt.Errorf("checkpoint manifest: %w", err)
	}
	ck.levels = append(ck.levels, states, tables)
	ck.counts = m.Levels
	ck.last = &m
	// The previous boundary is superseded; its files are no longer in any
	// manifest.
	if d > 0 {
		for _, kind := range []string{"tally", "sleep", "final", "final-tables"} {
			os.Remove(filepath.Join(dir, boundaryFile(d-1, kind)))
		}
	}
	return nil
}

// saveFinal records the figures of the finished run in its last
// checkpoint, whose depth d is the last of res.PerDepth.
func (x *explorer[C]) saveFinal(res *Run) error {
	m := *x.ck.last
	// The last level's checks (and an expansion that found nothing new)
	// may have interned values since the last boundary.
	var e Enc
	if err := x.ck.cfg.Tables.AppendTables(&e); err != nil {
		return fmt.Errorf("checkpoint tables: %w", err)
	}
	tables, err := writeWhole(x.ck.cfg.Dir, boundaryFile(m.Depth, "final-tables"), e.B)
	if err != nil {
		return err
	}
	f, err := writeWhole(x.ck.cfg.Dir, boundaryFile(m.Depth, "final"), x.encodeBoundary(res.Checked))
	if err != nil {
		return err
	}
	m.Final = &final{Bound: x.cfg.Depth, Tables: tables, File: f}
	b, err := sealed(m)
	if err != nil {
		return err
	}
	if err := replaceFile(x.ck.cfg.Dir, manifestName, append(b, '\n')); err != nil {
		return fmt.Errorf("checkpoint manifest: %w", err)
	}
	x.ck.last = &m
	return nil
}

// writeStates writes the states [lo, hi) of depth d: per state the parent
// (as the difference from the previous one: parents of a level are
// generated in order), the transition, then the row's words.
func (x *explorer[C]) writeStates(d, lo, hi int) (fileSum, error) {
	s, err := createFile(x.ck.cfg.Dir, levelFile(d, "states"))
	if err != nil {
		return fileSum{}, err
	}
	var e Enc
	e.Uvarint(uint64(d))
	e.Uvarint(uint64(x.store.width))
	e.Uvarint(uint64(hi - lo))
	row := make([]int32, x.store.width)
	prev := int64(-1)
	for i := lo; i < hi; i++ {
		x.store.RowInto(i, row)
		p := int64(x.store.Parent(int32(i)))
		e.Varint(p - prev)
		prev = p
		e.Uvarint(uint64(x.store.Trans(int32(i))))
		for _, w := range row {
			e.Uvarint(uint64(uint32(w)))
		}
		if len(e.B) >= 1<<16 {
			if _, err := s.Write(e.B); err != nil {
				s.abort()
				return fileSum{}, err
			}
			e.B = e.B[:0]
		}
	}
	if _, err := s.Write(e.B); err != nil {
		s.abort()
		return fileSum{}, err
	}
	return s.finish()
}

// encodeBoundary is the boundary's figures: the states checked, the time
// spent, and the tally.
func (x *explorer[C]) encodeBoundary(checked int) []byte {
	var e Enc
	e.Uvarint(uint64(checked))
	e.Varint(int64(time.Since(x.start)))
	t := x.total
	for _, u := range t.units {
		e.Varint(u)
	}
	e.Uvarint(uint64(len(t.violations)))
	for _, v := range t.violations {
		e.Varint(v)
	}
	keys := make([]string, 0, len(t.counters))
	for k := range t.counters {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.Uvarint(uint64(len(keys)))
	for _, k := range keys {
		e.String(k)
		e.Varint(t.counters[k])
	}
	encodeHit(&e, t.best)
	for _, h := range t.bestOf {
		encodeHit(&e, h)
	}
	return e.B
}

func encodeHit(e *Enc, h *Hit) {
	e.Bool(h != nil)
	if h == nil {
		return
	}
	e.Uvarint(uint64(h.Depth))
	e.Int32(h.Parent)
	e.Varint(int64(h.Trans))
	e.Uvarint(uint64(h.Finding.Inv))
	e.String(h.Finding.Detail)
}

// encodeSleep is the sleep sets of the n states of the level about to be
// expanded, as fixed-width words.
func (x *explorer[C]) encodeSleep(n int) []byte {
	x.sleep.grow(n)
	b := make([]byte, 0, 16+8*n*x.sleepWords)
	b = binary.AppendUvarint(b, uint64(n))
	b = binary.AppendUvarint(b, uint64(x.sleepWords))
	for _, w := range x.sleep.bits[:n*x.sleepWords] {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return b
}
