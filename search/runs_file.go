package search

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
)

// recLayout is the byte layout of a record in a run file: each row word in
// 2, 3 or 4 bytes (as in Store), then the parent (4 bytes) and the
// transition (2 bytes). A file keeps the layout it was written with; the
// layout of later files only ever widens, since a value once seen stays
// possible.
type recLayout struct {
	wd  []uint8
	off []int
	rec int
}

func newLayout(width int) recLayout {
	l := recLayout{wd: make([]uint8, width), off: make([]int, width)}
	for k := range l.wd {
		l.wd[k] = 2
	}
	l.fix()
	return l
}

func (l *recLayout) fix() {
	o := 0
	for k, w := range l.wd {
		l.off[k] = o
		o += int(w)
	}
	l.rec = o + 6
}

// fit widens the layout so that it holds every word of row.
func (l *recLayout) fit(row []int32) {
	wider := false
	for k, x := range row {
		if w := need(x); w > l.wd[k] {
			l.wd[k], wider = w, true
		}
	}
	if wider {
		l.fix()
	}
}

func (l recLayout) clone() recLayout {
	c := recLayout{wd: append([]uint8(nil), l.wd...), off: append([]int(nil), l.off...), rec: l.rec}
	return c
}

// put encodes a record into b (l.rec bytes).
func (l recLayout) put(b []byte, row []int32, parent int32, trans uint16) {
	for k, x := range row {
		putWord(b[l.off[k]:], l.wd[k], x)
	}
	putWord(b[l.rec-6:], 4, parent)
	putWord(b[l.rec-2:], 2, int32(trans))
}

// get decodes record b into row and returns its parent and transition.
func (l recLayout) get(b []byte, row []int32) (int32, uint16) {
	for k := range row {
		o := l.off[k]
		switch l.wd[k] {
		case 2:
			row[k] = int32(uint32(b[o]) | uint32(b[o+1])<<8)
		case 3:
			row[k] = int32(uint32(b[o]) | uint32(b[o+1])<<8 | uint32(b[o+2])<<16)
		default:
			row[k] = int32(uint32(b[o]) | uint32(b[o+1])<<8 | uint32(b[o+2])<<16 | uint32(b[o+3])<<24)
		}
	}
	p := b[l.rec-6:]
	return int32(uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24), uint16(p[4]) | uint16(p[5])<<8
}

// runFile is a file of fixed-size records in the store directory. It is
// unlinked as soon as it is created: its space lives as long as it is
// open, so nothing is left behind by a run that ends or dies.
type runFile struct {
	f   *os.File
	lay recLayout
	n   int // records written
	w   *bufio.Writer
	buf []byte
}

const ioBuffer = 1 << 20

// ioSize is the buffer for n records of rec bytes: no more than they
// take, and at most ioBuffer (n = 0: ioBuffer).
func ioSize(n, rec int) int {
	if n <= 0 {
		return ioBuffer
	}
	return min(ioBuffer, max(n*rec, 16))
}

// createRunFile opens a new run file for records of layout lay; expect is
// about how many records it will get (0: many), to size its buffer.
func createRunFile(dir string, lay recLayout, expect int) (*runFile, error) {
	f, err := os.CreateTemp(dir, "states-*.run")
	if err != nil {
		return nil, fmt.Errorf("state store: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, fmt.Errorf("state store: %w", err)
	}
	return &runFile{f: f, lay: lay.clone(), w: bufio.NewWriterSize(f, ioSize(expect, lay.rec)), buf: make([]byte, lay.rec)}, nil
}

// append writes one record; errors surface at finish.
func (r *runFile) append(row []int32, parent int32, trans uint16) {
	r.lay.put(r.buf, row, parent, trans)
	r.w.Write(r.buf) //nolint:errcheck // a bufio.Writer keeps its first error for Flush
	r.n++
}

// finish flushes what was written; the file is read-only afterwards.
func (r *runFile) finish() error {
	if err := r.w.Flush(); err != nil {
		return fmt.Errorf("state store: writing a run file: %w", err)
	}
	r.w = nil
	return nil
}

func (r *runFile) close() {
	if r != nil && r.f != nil {
		r.f.Close()
		r.f = nil
	}
}

// bytes is the file's size.
func (r *runFile) bytes() int64 { return int64(r.n) * int64(r.lay.rec) }

// readAt decodes record i into row.
func (r *runFile) readAt(i int, row []int32) (int32, uint16, error) {
	b := make([]byte, r.lay.rec)
	if _, err := r.f.ReadAt(b, int64(i)*int64(r.lay.rec)); err != nil {
		return 0, 0, fmt.Errorf("state store: reading record %d of a run file: %w", i, err)
	}
	p, t := r.lay.get(b, row)
	return p, t, nil
}

// runReader reads a run file's records in order, from record from.
type runReader struct {
	file *runFile
	src  int // the reader's place among a merge's inputs, for ties
	r    *bufio.Reader
	left int
	buf  []byte
	err  error
	// The current record, after next reported true.
	row    []int32
	parent int32
	trans  uint16
	hash   uint64
}

func (r *runFile) reader(from, width int) *runReader {
	sr := io.NewSectionReader(r.f, int64(from)*int64(r.lay.rec), r.bytes()-int64(from)*int64(r.lay.rec))
	return &runReader{file: r, r: bufio.NewReaderSize(sr, ioSize(r.n-from, r.lay.rec)), left: r.n - from, buf: make([]byte, r.lay.rec), row: make([]int32, width)}
}

// next decodes the following record; false at the end or on an error
// (err then says which).
func (rr *runReader) next() bool {
	if rr.left == 0 || rr.err != nil {
		return false
	}
	if _, err := io.ReadFull(rr.r, rr.buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		rr.err = fmt.Errorf("state store: reading a run file: %w", err)
		return false
	}
	rr.left--
	rr.parent, rr.trans = rr.file.lay.get(rr.buf, rr.row)
	rr.hash = hashRow(rr.row)
	return true
}
