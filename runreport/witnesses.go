package runreport

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
)

// Named is one witness of a run with the file name it is written under.
type Named struct {
	Name    string
	Witness *witnessfile.Witness
}

// Named lists every witness of the run with its file name: per tie the
// search's smallest (or, with All, one per violated invariant, named by
// it so the set of files says which invariants failed), then the
// directed checks'.
func (r *Run) Named() []Named {
	var ws []Named
	for _, e := range r.Explore {
		switch {
		case r.All:
			for _, w := range e.Witnesses {
				ws = append(ws, Named{fmt.Sprintf("explore-%s-depth%d-%s-%s.json", e.Universe, e.Depth, e.Tie, w.Invariant), w})
			}
		case e.Witness != nil:
			ws = append(ws, Named{fmt.Sprintf("explore-%s-depth%d-%s.json", e.Universe, e.Depth, e.Tie), e.Witness})
		}
	}
	for _, s := range r.Directed {
		for _, w := range s.Witnesses {
			ws = append(ws, Named{fmt.Sprintf("directed-%s-%s.json", w.Check, w.Tie), w})
		}
	}
	return ws
}

// Finish completes the run once every search and directed check is in:
// the universe's description from cat, the witnesses in the order the
// text shows them, the status, and the exit code (internal/cli's). A run
// under an amendment or a reading exits as its verdict unless a search
// stopped short: a spec-text difference alone is no failure, and a check
// not run leaves the run unknown.
func (r *Run) Finish(cat *exhaustive.Catalog) int {
	if u, err := cat.Universe(r.Universe); err == nil {
		r.Doc = u.Doc
	}
	r.Witnesses = nil
	for _, nw := range r.Named() {
		r.Witnesses = append(r.Witnesses, nw.Witness)
	}
	code := r.status()
	if r.Judged() && code != cli.ExitUnknown {
		code = mutants.VerdictExit(r.Verdict(cat))
	}
	return code
}

// status sets Status from the searches and the directed checks and
// returns its exit code: a violation anywhere outranks a search that
// stopped short, which outranks ok.
func (r *Run) status() int {
	code := cli.ExitOK
	r.Status = "ok"
	for _, e := range r.Explore {
		if e.Status == exhaustive.StatusUnknown && code == cli.ExitOK {
			code, r.Status = cli.ExitUnknown, "unknown"
		}
	}
	violated := slices.ContainsFunc(r.Explore, func(e *exhaustive.Result) bool { return e.Status == exhaustive.StatusViolation })
	for _, s := range r.Directed {
		for _, v := range s.Violations {
			violated = violated || v > 0
		}
	}
	if violated {
		code, r.Status = cli.ExitFailed, "violation"
	}
	return code
}

// WriteWitnesses writes every witness of the run into dir (created when
// there is one) and records the paths in Files, those written before an
// error included. With All each witness's text, rendered by render, is
// written beside it, for reading one invariant's trace without the
// others.
func (r *Run) WriteWitnesses(dir string, render func(*witnessfile.Witness) (string, error)) error {
	r.Files = nil
	ws := r.Named()
	if len(ws) == 0 {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("witness directory: %w", err)
	}
	for _, nw := range ws {
		p := filepath.Join(dir, nw.Name)
		if err := os.WriteFile(p, nw.Witness.JSON(), 0o644); err != nil {
			return fmt.Errorf("write witness: %w", err)
		}
		r.Files = append(r.Files, p)
		if r.All {
			text, err := render(nw.Witness)
			if err != nil {
				return fmt.Errorf("render witness %s: %w", nw.Name, err)
			}
			p = strings.TrimSuffix(p, ".json") + ".txt"
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				return fmt.Errorf("write witness: %w", err)
			}
			r.Files = append(r.Files, p)
		}
	}
	return nil
}
