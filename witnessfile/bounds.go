package witnessfile

import (
	"fmt"
	"io"
	"os"
)

// The bounds a witness file must keep before anything replays it. A file
// outside them is one the harness could not have written: it is refused
// (ErrBad, the field named) instead of being run, so that a hostile or
// corrupted file costs neither time nor memory nor a false verdict.
const (
	// MaxFileBytes bounds a witness file read for replay: 1 MiB. The
	// largest file the project writes is a few kilobytes (MaxDepth actions
	// of under 100 bytes each, or a load scenario of at most 50 steps), so
	// the bound leaves two orders of magnitude of room and keeps a replay's
	// reading in memory small.
	MaxFileBytes = 1 << 20
	// MaxDepth is the deepest depth bound an explorer or history-walk
	// witness can carry: the network worlds record at most 64 intent
	// events of one device on one context in a causal past (their vector
	// clocks are 64-bit words; exhaustive asserts the two agree), and a
	// trace of at most MaxDepth actions cannot make more. No universe is
	// explorable anywhere near this depth (the deepest runs are 7).
	MaxDepth = 64
	// MaxDetailBytes bounds the stored detail (and a load witness's
	// violation), which a replay echoes when it differs from what the
	// replay found: the longest the checks write is under 1 KB.
	MaxDetailBytes = 16 << 10
	// MaxNameBytes bounds the names a witness carries (kind, universe,
	// check, tie, rules, invariant, an action's name and context): every
	// name the project defines is under 64 bytes.
	MaxNameBytes = 256
)

// ReadFile reads a witness file of at most MaxFileBytes: a larger one is
// refused (ErrBad) after reading no more than the bound.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > MaxFileBytes {
		return nil, Bad("file is %d bytes, more than the %d a witness can take", st.Size(), MaxFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, Bad("file is more than the %d bytes a witness can take", MaxFileBytes)
	}
	return data, nil
}

// CheckSize refuses data larger than a witness file can be.
func CheckSize(data []byte) error {
	if len(data) > MaxFileBytes {
		return Bad("file is %d bytes, more than the %d a witness can take", len(data), MaxFileBytes)
	}
	return nil
}

// CheckTrace checks the bounds of a trace witness (an explorer or a
// history walk): a depth bound in 0..MaxDepth and no more actions than it
// (a witness is a path the search took within its bound).
func (w *Witness) CheckTrace() error {
	if w.Depth < 0 || w.Depth > MaxDepth {
		return Bad("depth %d: want 0..%d (the deepest bound a trace witness can carry)", w.Depth, MaxDepth)
	}
	if len(w.Actions) > w.Depth {
		return Bad("actions: %d steps, more than the depth bound %d the witness names", len(w.Actions), w.Depth)
	}
	return nil
}

// checkText refuses a text field longer than its bound, naming it.
func checkText(field, s string, max int) error {
	if len(s) > max {
		return Bad("%s: %d bytes, more than the %d a witness field can hold", field, len(s), max)
	}
	return nil
}

// checkFields bounds every text field of a witness: its names, its
// detail, its actions' names and contexts, its point's names and strings.
func (w *Witness) checkFields() error {
	var errs []error
	for _, f := range []struct{ name, v string }{{"kind", w.Kind}, {"universe", w.Universe}, {"check", w.Check}, {"tie", w.Tie}, {"rules", w.Rules}, {"invariant", w.Invariant}, {"encoding", w.Encoding}} {
		errs = append(errs, checkText(f.name, f.v, MaxNameBytes))
	}
	errs = append(errs, checkText("detail", w.Detail, MaxDetailBytes))
	for k, a := range w.Actions {
		errs = append(errs, checkText(fmt.Sprintf("actions[%d].action", k), a.Action, MaxNameBytes),
			checkText(fmt.Sprintf("actions[%d].ctx", k), a.Ctx, MaxNameBytes))
	}
	for _, p := range w.Point {
		errs = append(errs, checkText("point parameter name", p.Name, MaxNameBytes), checkText("point "+p.Name, p.Str, MaxNameBytes))
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
