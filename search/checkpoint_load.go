package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"
)

// resume loads the checkpoint of Config.Checkpoint.Dir into a fresh
// explorer: the World's tables, the stored states, the tally and, with
// POR, the sleep sets of the level about to be expanded. It returns the
// checkpoint's depth d and the bounds [lo, hi) of its states at depth d,
// and fills res with the figures of the levels before d; finished is true
// when the checkpoint holds the final figures of a run to this depth
// bound, which res then has. Everything is checked before it is used; on
// error nothing outside the explorer and its World has changed.
func (x *explorer[C]) resume(res *Run) (d, lo, hi int, finished bool, err error) {
	s, err := x.openResume()
	if err != nil {
		return 0, 0, 0, false, err
	}
	d = s.m.Depth
	plo, phi := -1, 0 // the previous level's states
	for l := 0; l <= d; l++ {
		if err := x.loadTables(s, s.m.Files[2*l+1]); err != nil {
			return 0, 0, 0, false, err
		}
		if err := x.loadStates(s, s.m.Files[2*l], l, s.m.Levels[l], plo, phi); err != nil {
			return 0, 0, 0, false, err
		}
		plo, phi = phi, x.store.Len()
	}
	lo, hi = plo, phi
	if err := x.verifyStates(); err != nil {
		return 0, 0, 0, false, fmt.Errorf("%s: %w", s.dir, err)
	}
	x.ck.levels = append(x.ck.levels, s.m.Files[:2*(d+1)]...)
	x.ck.counts = append(x.ck.counts, s.m.Levels...)
	x.ck.last = &s.m
	if f := s.m.Final; f != nil && f.Bound == x.cfg.Depth {
		if err := x.loadTables(s, f.Tables); err != nil {
			return 0, 0, 0, false, err
		}
		checked, elapsed, err := x.loadBoundary(s, f.File, d)
		if err != nil {
			return 0, 0, 0, false, err
		}
		res.PerDepth = append(res.PerDepth, s.m.Levels...)
		res.Checked = checked
		x.start = time.Now().Add(-elapsed)
		return d, lo, hi, true, nil
	}
	rest := s.m.Files[2*(d+1):]
	checked, elapsed, err := x.loadBoundary(s, rest[0], d)
	if err != nil {
		return 0, 0, 0, false, err
	}
	if x.red != nil {
		if err := x.loadSleep(s, rest[1], hi-lo); err != nil {
			return 0, 0, 0, false, err
		}
	}
	res.PerDepth = append(res.PerDepth, s.m.Levels[:d]...)
	res.Checked = checked
	x.start = time.Now().Add(-elapsed)
	return d, lo, hi, false, nil
}

// openResume opens the checkpoint to resume and checks that this run can
// continue it: its identity, depth bound and state limit.
func (x *explorer[C]) openResume() (*Saved, error) {
	s, err := OpenCheckpoint(x.ck.cfg.Dir)
	if err != nil {
		return nil, err
	}
	if err := s.matchAll(x.ck.identity); err != nil {
		return nil, err
	}
	d := s.m.Depth
	if d > x.cfg.Depth {
		return nil, fmt.Errorf("%s: the checkpoint has reached depth %d, beyond the depth bound %d (a shallower run starts afresh)", s.dir, d, x.cfg.Depth)
	}
	if x.cfg.MaxStates > 0 && s.States() > x.cfg.MaxStates {
		return nil, fmt.Errorf("%s: the checkpoint holds %d states, more than the state limit %d", s.dir, s.States(), x.cfg.MaxStates)
	}
	if (x.red != nil) != (len(s.m.Files) == len(fileNames(d, true))) {
		return nil, fmt.Errorf("%s: malformed manifest: sleep sets and POR disagree", s.dir)
	}
	return s, nil
}

// CheckResume checks, reading every file of the checkpoint and changing
// nothing, that a run of w under cfg (with cfg.Checkpoint set to resume)
// can resume from it: the checkpoint is whole, of this run, and within the
// depth bound and the state limit. The World's tables are not loaded.
func CheckResume[C any](w World[C], cfg Config) error {
	if cfg.Checkpoint == nil {
		return errors.New("no checkpoint configured")
	}
	x := &explorer[C]{cfg: cfg, w: w, ninv: len(w.Invariants())}
	if r, ok := w.(Reducer[C]); ok && cfg.POR {
		x.red = r
	}
	x.ck = x.newCheckpointer()
	s, err := x.openResume()
	if err != nil {
		return err
	}
	return s.Verify()
}

// matchAll is Match requiring the same fields on both sides.
func (s *Saved) matchAll(identity []Field) error {
	if err := s.Match(identity); err != nil {
		return err
	}
	if len(s.m.Identity) != len(identity) {
		return fmt.Errorf("%s is a checkpoint of another kind of run (%d identity fields, %d here)", s.dir, len(s.m.Identity), len(identity))
	}
	return nil
}

func (x *explorer[C]) loadTables(s *Saved, fs fileSum) error {
	f, err := s.open(fs)
	if err != nil {
		return err
	}
	b, err := f.readAll()
	if err != nil {
		return err
	}
	// The checksum is checked before the World sees a byte.
	if err := f.Close(); err != nil {
		return err
	}
	dec := NewDec(b)
	err = x.ck.cfg.Tables.LoadTables(dec)
	if err == nil && dec.Left() != 0 {
		err = errors.New("bytes after its last record")
	}
	if err != nil {
		return fmt.Errorf("%s: checkpoint file %s: %w", s.dir, fs.Name, err)
	}
	return nil
}

// loadStates adds the n states of depth l from fs to the store; their
// parents are the previous level's states [plo, phi).
func (x *explorer[C]) loadStates(s *Saved, fs fileSum, l, n, plo, phi int) error {
	f, err := s.open(fs)
	if err != nil {
		return err
	}
	if err := x.readStates(f, l, n, plo, phi); err != nil {
		return f.failRead(err)
	}
	return f.Close()
}

func (x *explorer[C]) readStates(f *checkedFile, l, n, plo, phi int) error {
	width := x.store.width
	for _, want := range []int{l, width, n} {
		v, err := binary.ReadUvarint(f)
		if err != nil || v != uint64(want) {
			return fmt.Errorf("header does not match the manifest (depth %d, width %d, %d states)", l, width, n)
		}
	}
	nt := x.w.Transitions()
	row := make([]int32, width)
	prev := int64(-1)
	for k := range n {
		delta, err := binary.ReadVarint(f)
		if err != nil || delta < -(1<<40) || delta > 1<<40 {
			return fmt.Errorf("state %d: bad parent", k)
		}
		p := prev + delta
		prev = p
		tr, err := binary.ReadUvarint(f)
		if err != nil {
			return fmt.Errorf("state %d: bad transition", k)
		}
		switch {
		case l == 0 && (p != -1 || tr != 0):
			return errors.New("the initial state has a parent")
		case l > 0 && (p < int64(plo) || p >= int64(phi) || tr >= uint64(nt)):
			return fmt.Errorf("state %d: parent %d or transition %d out of range", k, p, tr)
		}
		for i := range row {
			v, err := binary.ReadUvarint(f)
			if err != nil || v > math.MaxUint32 {
				return fmt.Errorf("state %d: bad row word", k)
			}
			row[i] = int32(uint32(v))
		}
		if err := x.ck.cfg.Tables.ValidRow(row); err != nil {
			return fmt.Errorf("state %d: %w", k, err)
		}
		if _, added := x.store.addHashed(row, hashRow(row), int32(p), uint16(tr)); !added {
			return fmt.Errorf("state %d is stored twice", k)
		}
	}
	return nil
}

// loadBoundary restores the tally of the checkpoint of depth d and returns
// the states checked and the time spent.
func (x *explorer[C]) loadBoundary(s *Saved, fs fileSum, d int) (checked int, elapsed time.Duration, err error) {
	f, err := s.open(fs)
	if err != nil {
		return 0, 0, err
	}
	b, err := f.readAll()
	if err != nil {
		return 0, 0, err
	}
	if err := f.Close(); err != nil {
		return 0, 0, err
	}
	dec := NewDec(b)
	checked = dec.Int(x.store.Len())
	levels := s.m.Levels
	elapsed = time.Duration(dec.Varint())
	t := NewTally(x.ninv)
	for u := range t.units {
		t.units[u] = dec.Varint()
	}
	if dec.Int(x.ninv) != x.ninv {
		dec.Fail(errors.New("invariant count differs"))
	}
	for i := range t.violations {
		t.violations[i] = dec.Varint()
	}
	for range dec.Count(2) {
		k := dec.String()
		t.counters[k] = dec.Varint()
	}
	t.best = x.decodeHit(dec, levels)
	for i := range t.bestOf {
		t.bestOf[i] = x.decodeHit(dec, levels)
	}
	if dec.Err() == nil && (dec.Left() != 0 || elapsed < 0) {
		dec.Fail(errors.New("malformed figures"))
	}
	if dec.Err() != nil {
		return 0, 0, fmt.Errorf("%s: checkpoint file %s: %w", s.dir, fs.Name, dec.Err())
	}
	x.total = t
	return checked, elapsed, nil
}

// decodeHit reads a hit of a checkpoint whose levels hold the given
// numbers of states, checking that it names an invariant and locates a
// trace the store holds: the initial state (a check of it), or a
// transition enabled at a stored state, one level below the hit.
func (x *explorer[C]) decodeHit(dec *Dec, levels []int) *Hit {
	if !dec.Bool() {
		return nil
	}
	h := Hit{Depth: dec.Int(len(levels) - 1), Parent: dec.Int32(), Trans: int(dec.Varint())}
	h.Finding = Finding{Inv: dec.Int(x.ninv - 1), Detail: dec.String()}
	if dec.Err() != nil {
		return nil
	}
	bad := func() {
		dec.Fail(fmt.Errorf("a recorded violation locates no stored trace (depth %d, parent %d, transition %d)", h.Depth, h.Parent, h.Trans))
	}
	if h.Parent < 0 {
		if h.Parent != -1 || h.Trans != -1 || h.Depth != 0 {
			bad()
		}
		return &h
	}
	start := 0 // first state of the parent's level, h.Depth-1
	for l := 0; l < h.Depth-1; l++ {
		start += levels[l]
	}
	if h.Depth < 1 || int(h.Parent) < start || int(h.Parent) >= start+levels[h.Depth-1] || h.Trans >= x.w.Transitions() || h.Trans < 0 {
		bad()
		return nil
	}
	cur, next := x.store.Row(int(h.Parent)), make([]int32, x.store.width)
	if ok, _ := x.w.Successor(x.workers[0], cur, h.Trans, next, NewTally(x.ninv)); !ok {
		bad()
	}
	return &h
}

// verifyStates recomputes every loaded state from its parent: the first
// must be the World's initial state and every other the successor of its
// parent under its transition. The files' checksums catch damage; this
// catches a checkpoint that does not fit the World it is loaded into, so
// that the run never meets a state or a path the World cannot produce. It
// interns nothing a genuine checkpoint lacks: the run that wrote it
// computed every one of these successors.
func (x *explorer[C]) verifyStates() (err error) {
	n, w := x.store.Len(), x.store.width
	if !slices.Equal(x.w.Initial(x.workers[0]), x.store.Row(0)) {
		return errors.New("the first stored state is not the initial state")
	}
	pieces := (n - 1 + pieceSize - 1) / pieceSize
	bad := parallel(x, pieces, func(c C, p int) (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprintf("the world fails on a stored state: %v", r)
			}
		}()
		tl := NewTally(x.ninv)
		cur, next, row := make([]int32, w), make([]int32, w), make([]int32, w)
		for i := 1 + p*pieceSize; i < min(1+(p+1)*pieceSize, n); i++ {
			x.store.RowInto(int(x.store.Parent(int32(i))), cur)
			ok, _ := x.w.Successor(c, cur, x.store.Trans(int32(i)), next, tl)
			if !ok || !slices.Equal(next, x.store.RowInto(i, row)) {
				return fmt.Sprintf("stored state %d is not the successor of its parent %d under transition %d", i, x.store.Parent(int32(i)), x.store.Trans(int32(i)))
			}
		}
		return ""
	})
	for _, msg := range bad {
		if msg != "" {
			return errors.New(msg)
		}
	}
	return nil
}

// loadSleep restores the sleep sets of the n states about to be expanded.
func (x *explorer[C]) loadSleep(s *Saved, fs fileSum, n int) error {
	f, err := s.open(fs)
	if err != nil {
		return err
	}
	if err := x.readSleep(f, n, fs.Bytes); err != nil {
		return f.failRead(err)
	}
	return f.Close()
}

func (x *explorer[C]) readSleep(f *checkedFile, n int, size int64) error {
	gn, err1 := binary.ReadUvarint(f)
	gw, err2 := binary.ReadUvarint(f)
	if err1 != nil || err2 != nil || gn != uint64(n) || gw != uint64(x.sleepWords) {
		return fmt.Errorf("header does not match the level (%d states, %d words a set)", n, x.sleepWords)
	}
	words := n * x.sleepWords
	if int64(words)*8 > size {
		return errors.New("shorter than its sets")
	}
	buf := make([]byte, 8*words)
	if _, err := io.ReadFull(f, buf); err != nil {
		return errors.New("shorter than its sets")
	}
	bits := make([]uint64, words)
	for i := range bits {
		bits[i] = binary.LittleEndian.Uint64(buf[8*i:])
	}
	x.sleep = &sleepSets{words: x.sleepWords, bits: bits}
	return nil
}
