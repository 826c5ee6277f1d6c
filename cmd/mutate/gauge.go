package main

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// gauge turns the gate's progress lines (one per check run: "M1 tie=clear
// explore:network: nothing (1.2s)") into what a waiting user asks: how
// many of the mutant runs have finished and about how long the rest will
// take. A mutant run is one mutant under one tie policy; the estimate is
// the mean time of the finished runs times the runs left (runs differ a
// lot, so it is an estimate, said as one). It only decorates stderr.
type gauge struct {
	mu      sync.Mutex
	total   int    // mutant runs the gate will make
	control string // the control's name in progress lines
	now     func() time.Time
	start   time.Time // when the first mutant run started
	runs    int       // mutant runs started
	current string
	checks  int // control checks run
}

func newGauge(total int, control string, now func() time.Time) *gauge {
	return &gauge{total: total, control: control, now: now}
}

// line returns the progress line to print for one line of the gate.
func (g *gauge) line(s string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	run, _, _ := strings.Cut(s, " tie=")
	if run == g.control {
		g.checks++
		return fmt.Sprintf("control %s, check %d: %s", g.control, g.checks, s)
	}
	key, _, _ := strings.Cut(s, ": ")
	if f := strings.Fields(key); len(f) >= 2 {
		key = f[0] + " " + f[1]
	}
	if key != g.current {
		if g.runs == 0 {
			g.start = g.now()
		}
		g.current = key
		g.runs++
	}
	done := g.runs - 1
	head := fmt.Sprintf("mutant run %d of %d", g.runs, g.total)
	if done > 0 && g.total > done {
		per := g.now().Sub(g.start) / time.Duration(done)
		left := per * time.Duration(g.total-done)
		head += ", " + roughly(left) + " left"
	}
	return head + ": " + s
}

// roughly writes a duration as a person would estimate it.
func roughly(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return "a few seconds"
	case d < 90*time.Second:
		return fmt.Sprintf("about %d s", int(d.Round(5*time.Second).Seconds()))
	case d < 90*time.Minute:
		return fmt.Sprintf("about %d min", int(d.Round(time.Minute).Minutes()))
	}
	return fmt.Sprintf("about %.1f h", d.Hours())
}
