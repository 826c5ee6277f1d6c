package mutants

import (
	"fmt"
	"strings"
	"sync"
)

// Partial keeps what a gate run has done so far, from the runner's
// progress line per check (Options.Progress: "<mutant or control>
// tie=<tie> <check>: <invariant or nothing> (<time>)"), for the partial
// summary an interrupted run prints. It reads the lines this package
// writes, so the format and its reader change together.
type Partial struct {
	mu sync.Mutex
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

// NewPartial returns an empty record of a run whose baseline is control.
func NewPartial(control string) *Partial {
	return &Partial{control: control, caught: map[string]string{}}
}

// Note records one progress line.
func (p *Partial) Note(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.checks++
	run, check, what := splitProgress(line)
	if _, seen := p.caught[run]; !seen {
		p.order = append(p.order, run)
		p.caught[run] = ""
	}
	if what != "nothing" && p.caught[run] == "" {
		p.caught[run] = check + " " + what
	}
}

// splitProgress cuts a progress line into its run ("M1 tie=clear"), its
// check and what the check found. A check's name may hold ": " itself,
// so the finding is after the last one.
func splitProgress(line string) (run, check, what string) {
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

// Lines says what the run did so far, one indented line each: a run no
// check has caught yet is "not caught so far", never "survived".
func (p *Partial) Lines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := []string{"  no check had finished"}
	if p.checks > 0 {
		out[0] = fmt.Sprintf("  %d checks finished", p.checks)
	}
	for _, run := range p.order {
		c := p.caught[run]
		switch control := strings.HasPrefix(run, p.control+" "); {
		case control && c != "":
			out = append(out, fmt.Sprintf("  control %s: tripped %s", run, c))
		case control:
			out = append(out, fmt.Sprintf("  control %s: nothing tripped so far (no verdict)", run))
		case c != "":
			out = append(out, fmt.Sprintf("  %s: caught by %s", run, c))
		default:
			out = append(out, fmt.Sprintf("  %s: not caught so far (no verdict)", run))
		}
	}
	return out
}
