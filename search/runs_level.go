package search

import (
	"fmt"

	"github.com/nip-rs/harness/internal/offheap"
)

// runRuns is run with the runs store (runs.go): the same levels, checks
// and bounds, with each level's successors de-duplicated at its end.
func (x *explorer[C]) runRuns() (*Run, error) {
	w := x.w.Width()
	rs := newRunsStore(w, x.cfg.StoreDir, x.cfg.RunsMemory)
	view := &Store{width: w, n: 1, ext: rs, mem: &offheap.Arena{}}
	fail := func(err error) (*Run, error) {
		rs.close()
		return nil, err
	}
	defer rs.mem.FreeAll() // the buffer; the level files live on in view

	x.workers = append(x.workers, x.w.NewWorker())
	init := x.w.Initial(x.workers[0])
	rs.lay.fit(init)
	for k := range 2 {
		f, err := rs.create(1)
		if err != nil {
			return fail(err)
		}
		f.append(init, -1, 0)
		if err := f.finish(); err != nil {
			f.close()
			return fail(err)
		}
		rs.account(f.bytes())
		if k == 0 {
			rs.visited = f
		} else {
			rs.levels, rs.base = append(rs.levels, f), append(rs.base, 0)
		}
	}
	x.total = NewTally(x.ninv)
	x.distinct.Store(1)
	stop := x.startProgress()
	defer stop()

	res := &Run{Workers: x.cfg.Workers, Store: view, Tally: x.total}
	lo, hi := 0, 1
	for d := 0; ; d++ {
		res.PerDepth = append(res.PerDepth, hi-lo)
		if d > 0 {
			x.previous.Store(int64(res.PerDepth[d-1]))
		}
		if !x.cfg.TerminalOnly || d == x.cfg.Depth {
			if err := x.checkLevel(rs, lo, hi, d); err != nil {
				return fail(err)
			}
			res.Checked += hi - lo
		}
		if d == x.cfg.Depth || hi == lo || (x.cfg.StopAtFirst && x.total.best != nil) {
			break
		}
		n, limited, err := x.expandLevel(rs, lo, hi, d)
		if err != nil {
			return fail(err)
		}
		view.n = hi + n
		x.distinct.Store(int64(view.n))
		if limited {
			res.BoundHit = fmt.Sprintf("state limit %d reached while expanding depth %d", x.cfg.MaxStates, d)
			res.PerDepth = append(res.PerDepth, n)
			break
		}
		lo, hi = hi, hi+n
		if hi == lo {
			break
		}
	}
	res.Distinct = view.n
	return x.finish(res), nil
}

// readBlock decodes the next n records of rd into rows, parents and
// trans.
func readBlock(rd *runReader, n, w int, rows, parents []int32, trans []uint16) error {
	for i := range n {
		if !rd.next() {
			if rd.err != nil {
				return rd.err
			}
			return fmt.Errorf("state store: a level file ends early")
		}
		copy(rows[i*w:(i+1)*w], rd.row)
		parents[i], trans[i] = rd.parent, rd.trans
	}
	return nil
}

// checkLevel runs the state checks on the states [lo, hi) of depth d,
// read from their level file.
func (x *explorer[C]) checkLevel(rs *runsStore, lo, hi, d int) error {
	x.depth.Store(int64(d))
	x.checking.Store(true)
	x.startLevel(lo, hi)
	w := rs.width
	rd := rs.levels[d].reader(0, w)
	bs := min(blockSize, hi-lo)
	rows, parents, trans := make([]int32, bs*w), make([]int32, bs), make([]uint16, bs)
	for b := lo; b < hi; b += blockSize {
		be := min(b+blockSize, hi)
		if err := readBlock(rd, be-b, w, rows, parents, trans); err != nil {
			return err
		}
		pieces := (be - b + pieceSize - 1) / pieceSize
		outs := parallel(x, pieces, func(c C, p int) *Tally {
			t := NewTally(x.ninv)
			for k := p * pieceSize; k < min((p+1)*pieceSize, be-b); k++ {
				tr := int(trans[k])
				if parents[k] < 0 {
					tr = -1
				}
				for _, f := range x.w.Check(c, rows[k*w:(k+1)*w], t) {
					t.record(Hit{d, parents[k], tr, f})
				}
				x.queue.Add(-1)
			}
			return t
		})
		for _, t := range outs {
			x.total.merge(t)
		}
	}
	return nil
}

// expandLevel generates the successors of the states [lo, hi) of depth d
// into candidate runs, merges them with the visited file and writes level
// d+1's file. It returns the number of new states, and whether the state
// limit cut the level short: then, as with the in-memory store, only the
// blocks of parents up to the one that crossed the limit count, with
// their transitions' findings.
func (x *explorer[C]) expandLevel(rs *runsStore, lo, hi, d int) (int, bool, error) {
	w, nt := rs.width, x.w.Transitions()
	x.depth.Store(int64(d))
	x.checking.Store(false)
	x.startLevel(lo, hi)
	var runs []*runFile
	defer func() {
		for _, f := range runs {
			rs.drop(f)
		}
	}()
	spill := func() error {
		f, err := rs.create(rs.buf.n)
		if err != nil {
			return err
		}
		runs = append(runs, f)
		if err := rs.buf.writeSorted(f); err != nil {
			return err
		}
		rs.account(f.bytes())
		return nil
	}
	rd := rs.levels[d].reader(0, w)
	bs := min(blockSize, hi-lo)
	rows, parents, trans := make([]int32, bs*w), make([]int32, bs), make([]uint16, bs)
	var tallies []*Tally
	for b := lo; b < hi; b += blockSize {
		be := min(b+blockSize, hi)
		if err := readBlock(rd, be-b, w, rows, parents, trans); err != nil {
			return 0, false, err
		}
		pieces := (be - b + pieceSize - 1) / pieceSize
		outs := parallel(x, pieces, func(c C, p int) pieceOut {
			o := pieceOut{t: NewTally(x.ninv)}
			next := make([]int32, w)
			for i := b + p*pieceSize; i < min(b+(p+1)*pieceSize, be); i++ {
				cur := rows[(i-b)*w : (i-b+1)*w]
				for t := range nt {
					ok, fs := x.w.Successor(c, cur, t, next, o.t)
					if !ok {
						continue
					}
					for _, f := range fs {
						o.t.record(Hit{d + 1, int32(i), t, f})
					}
					h := hashRow(next)
					if rs.buf.has(next, h) {
						continue // buffered from an earlier block, so from a smaller parent
					}
					o.hashes = append(o.hashes, h)
					o.rows = append(o.rows, next...)
					o.parents = append(o.parents, int32(i))
					o.trans = append(o.trans, uint16(t))
				}
				x.queue.Add(-1)
			}
			return o
		})
		t := NewTally(x.ninv)
		for _, o := range outs {
			t.merge(o.t)
			for k, par := range o.parents {
				if rs.buf.full() {
					if err := spill(); err != nil {
						return 0, false, err
					}
				}
				row := o.rows[k*w : (k+1)*w]
				rs.lay.fit(row)
				rs.buf.insert(row, o.hashes[k], par, o.trans[k])
			}
		}
		tallies = append(tallies, t)
	}
	if err := spill(); err != nil {
		return 0, false, err
	}
	next, counts, err := x.mergeCandidates(rs, runs, lo, hi, d)
	if err != nil {
		return 0, false, err
	}
	n, limited := next.n, false
	if x.cfg.MaxStates > 0 {
		stored := hi
		for k, c := range counts {
			stored += c
			if stored > x.cfg.MaxStates {
				n, limited, tallies = stored-hi, true, tallies[:k+1]
				break
			}
		}
	}
	next.n = n // a cut level keeps its first n states: those of the counted blocks
	for _, t := range tallies {
		x.total.merge(t)
	}
	rs.levels, rs.base = append(rs.levels, next), append(rs.base, hi)
	return n, limited, nil
}

// mergeCandidates merges the candidate runs of level d+1 with the visited
// file into level d+1's file (and the next visited file, unless d+1 is the
// last level), and counts the new states by block of parents.
func (x *explorer[C]) mergeCandidates(rs *runsStore, runs []*runFile, lo, hi, d int) (*runFile, []int, error) {
	w := rs.width
	x.queue.Store(0)
	counts := make([]int, (hi-lo+blockSize-1)/blockSize)
	var byRefRuns []*runFile
	defer func() {
		for _, f := range byRefRuns {
			rs.drop(f)
		}
	}()
	var out *runFile
	if d+1 < x.cfg.Depth {
		var err error
		if out, err = rs.create(0); err != nil {
			return nil, nil, err
		}
	}
	found := 0
	emit := func(row []int32, parent int32, trans uint16) error {
		if rs.buf.full() {
			f, err := rs.create(rs.buf.n)
			if err != nil {
				return err
			}
			byRefRuns = append(byRefRuns, f)
			if err := rs.buf.writeSorted(f); err != nil {
				return err
			}
			rs.account(f.bytes())
		}
		rs.buf.push(row, parent, trans)
		counts[(int(parent)-lo)/blockSize]++
		found++
		x.distinct.Store(int64(hi + found))
		return nil
	}
	if err := mergeLevel(rs.visited, runs, w, out, emit); err != nil {
		out.close()
		return nil, nil, err
	}
	if out != nil {
		if err := out.finish(); err != nil {
			out.close()
			return nil, nil, err
		}
		rs.account(out.bytes())
		rs.drop(rs.visited)
		rs.visited = out
	}
	next, err := rs.create(0)
	if err != nil {
		return nil, nil, err
	}
	if len(byRefRuns) == 0 {
		err = rs.buf.writeSorted(next)
	} else {
		f, err2 := rs.create(rs.buf.n)
		if err2 != nil {
			next.close()
			return nil, nil, err2
		}
		byRefRuns = append(byRefRuns, f)
		if err = rs.buf.writeSorted(f); err == nil {
			if err = mergeByRef(byRefRuns, w, next); err == nil {
				err = next.finish()
			}
		}
	}
	if err != nil {
		next.close()
		return nil, nil, err
	}
	rs.account(next.bytes())
	return next, counts, nil
}
