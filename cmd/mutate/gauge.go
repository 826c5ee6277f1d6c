package main

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nip-rs/harness/internal/cli"
)

// gauge turns the gate's events into what a waiting user asks: how many
// of the mutant runs have started and about how long the rest will take.
// A mutant run is one mutant under one tie policy. Runs are counted as the
// runner starts them (mutants.Options.Started), not inferred from check
// lines: a run that runs no check (every check skipped) prints no line,
// and a gauge counting lines would end short of its total. The estimate is
// the mean time of the finished runs times the runs left (runs differ a
// lot, so it is an estimate, said as one). It only decorates stderr.
type gauge struct {
	mu      sync.Mutex
	total   int    // mutant runs the gate will make
	control string // the control's name in progress lines
	now     func() time.Time
	start   time.Time // when the first mutant run started
	runs    int       // mutant runs started
	checks  int       // control checks run
}

func newGauge(total int, control string, now func() time.Time) *gauge {
	return &gauge{total: total, control: control, now: now}
}

// started records that the next mutant run began and returns its line.
func (g *gauge) started(id, tie string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.runs == 0 {
		g.start = g.now()
	}
	g.runs++
	return g.head() + ": " + id + " tie=" + tie + " starts"
}

// head is "mutant run k of N" with the estimate of the time left.
func (g *gauge) head() string {
	done := g.runs - 1
	head := fmt.Sprintf("mutant run %d of %d", g.runs, g.total)
	if done > 0 && g.total > done {
		per := g.now().Sub(g.start) / time.Duration(done)
		left := per * time.Duration(g.total-done)
		head += ", " + cli.Roughly(left) + " left"
	}
	return head
}

// line returns the progress line to print for one line of the gate.
func (g *gauge) line(s string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	run, _, _ := strings.Cut(s, " tie=")
	if run == g.control || g.runs == 0 {
		g.checks++
		return fmt.Sprintf("control %s, check %d: %s", g.control, g.checks, s)
	}
	return g.head() + ": " + s
}

// finished is the last line: every run accounted for.
func (g *gauge) finished() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return fmt.Sprintf("%d of %d mutant runs done", g.runs, g.total)
}
