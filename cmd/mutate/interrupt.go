package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
)

// progress keeps what a gate run has done so far, from the runner's line
// per check ("<mutant or control> tie=<tie> <check>: <invariant or
// nothing> (<time>)"), for the partial summary an interrupt prints.
type progress struct {
	mu   sync.Mutex
	head string
	// control is the baseline's name, which its lines carry in place
	// of a mutant's id.
	control string
	checks  int
	// order lists the runs (mutant or control, and tie) in the order
	// their first check finished; caught holds the first check that
	// caught each, with its invariant.
	order  []string
	caught map[string]string
}

func newProgress(head, control string) *progress {
	return &progress{head: head, control: control, caught: map[string]string{}}
}

// note records one progress line.
func (p *progress) note(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.checks++
	run, check, what := splitLine(line)
	if _, seen := p.caught[run]; !seen {
		p.order = append(p.order, run)
		p.caught[run] = ""
	}
	if what != "nothing" && p.caught[run] == "" {
		p.caught[run] = check + " " + what
	}
}

// splitLine cuts a progress line into its run ("M1 tie=clear"), its check
// and what the check found. A check's name may hold ": " itself, so the
// finding is after the last one.
func splitLine(line string) (run, check, what string) {
	i := strings.LastIndex(line, ": ")
	if i < 0 {
		return line, "", "nothing"
	}
	head, tail := line[:i], line[i+2:]
	what, _, _ = strings.Cut(tail, " (")
	f := strings.Fields(head)
	if len(f) < 3 {
		return head, "", what
	}
	return f[0] + " " + f[1], strings.Join(f[2:], " "), what
}

// summary writes the partial summary: a run no check has caught yet is
// "not caught so far", never "survived".
func (p *progress) summary(w io.Writer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(w, "\ninterrupted: partial summary of %s\n", p.head)
	if p.checks == 0 {
		fmt.Fprintln(w, "  no check had finished")
	} else {
		fmt.Fprintf(w, "  %d checks finished\n", p.checks)
	}
	for _, run := range p.order {
		c := p.caught[run]
		switch control := strings.HasPrefix(run, p.control+" "); {
		case control && c != "":
			fmt.Fprintf(w, "  control %s: tripped %s\n", run, c)
		case control:
			fmt.Fprintf(w, "  control %s: nothing tripped so far (no verdict)\n", run)
		case c != "":
			fmt.Fprintf(w, "  %s: caught by %s\n", run, c)
		default:
			fmt.Fprintf(w, "  %s: not caught so far (no verdict)\n", run)
		}
	}
	fmt.Fprintln(w, "result: unknown (interrupted); the mutants not listed did not run, no golden file was compared or written")
}
