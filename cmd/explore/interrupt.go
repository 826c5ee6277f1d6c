package main

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/notefig"
	"github.com/nip-rs/harness/model"
)

// tracker keeps what a run has done so far, for the partial summary an
// interrupt prints: the finished explorations and the last progress
// snapshot of the one in flight.
type tracker struct {
	mu       sync.Mutex
	run      string
	finished []*exhaustive.Result
	tie      model.TiePolicy
	last     *exhaustive.Progress
	running  bool
}

var current tracker

func (t *tracker) start(out *outcome, tie model.TiePolicy) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.run, t.tie, t.last, t.running = out.Run, tie, nil, true
}

// named records a run that reports no progress (the walk universe, a few
// seconds): an interrupt then says which run it stopped.
func (t *tracker) named(run string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.run = run
}

func (t *tracker) note(p exhaustive.Progress) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last = &p
}

func (t *tracker) finish(r *exhaustive.Result) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.finished, t.running = append(t.finished, r), false
}

// summary writes the partial summary: nothing a stopped exploration was
// about to check is reported as passing.
func (t *tracker) summary(w io.Writer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(w, "\ninterrupted: partial summary of %s\n", t.run)
	for _, r := range t.finished {
		fmt.Fprintf(w, "  tie %s: finished, %s, %s distinct states to depth %d\n", r.Tie, r.Status, notefig.Commas(r.Distinct), len(r.PerDepth)-1)
		for _, c := range r.Invariants {
			if c.Violations > 0 {
				fmt.Fprintf(w, "    %s %s failed %s times\n", c.Label, c.Name, notefig.Commas(int(c.Violations)))
			}
		}
	}
	switch {
	case t.running && t.last != nil:
		p := t.last
		fmt.Fprintf(w, "  tie %s: stopped while %sing depth %d, %s distinct states stored; its invariants are not checked (no verdict)\n",
			t.tie, p.Phase, p.Depth, notefig.Commas(p.Distinct))
	case t.running:
		fmt.Fprintf(w, "  tie %s: stopped before its first progress report; not checked\n", t.tie)
	}
	fmt.Fprintln(w, "result: unknown (interrupted)")
}

// onInterrupt prints the partial summary to w and exits with exitUnknown
// when ctx ends (cli.Interruptible: the first SIGINT or SIGTERM). exit is
// os.Exit in the command; done is closed once the summary is written.
func onInterrupt(ctx context.Context, w io.Writer, exit func(int)) (done <-chan struct{}) {
	ch := make(chan struct{})
	go func() {
		<-ctx.Done()
		current.summary(w)
		close(ch)
		exit(exitUnknown)
	}()
	return ch
}
