package comparison

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nip-rs/harness/model"
)

// ParseCandidates reads a comma-separated list of candidate names, each
// trimmed; an empty name is an error.
func ParseCandidates(list string) ([]string, error) {
	var out []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n == "" {
			return nil, fmt.Errorf("%q: an empty candidate name", list)
		}
		out = append(out, n)
	}
	return out, nil
}

// Parse sets the candidates and the tie policies as a command names
// them: candidates comma-separated (ParseCandidates); one tie policy, or
// "both" for a column under each. A bad name is an error naming its
// flag, and o is then left as it was.
func (o *Options) Parse(candidates, tie string) error {
	cands, err := ParseCandidates(candidates)
	if err != nil {
		return fmt.Errorf("-compare %v", err)
	}
	var ties []model.TiePolicy
	if tie != "both" {
		t, err := model.ParseTiePolicy(tie)
		if err != nil {
			return fmt.Errorf("-tie: %v", err)
		}
		ties = []model.TiePolicy{t}
	}
	o.Candidates, o.Ties = cands, ties
	return nil
}

// WriteWitnesses writes the witness of every violated cell to dir under
// its name (Witnesses) and returns the files written, in table order;
// nothing, not even dir, when no cell is violated. On an error it returns
// the files written before it.
func (t *Table) WriteWitnesses(dir string) ([]string, error) {
	names, ws := t.Witnesses()
	if len(ws) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("witness directory: %w", err)
	}
	var files []string
	for i, w := range ws {
		p := filepath.Join(dir, names[i])
		if err := os.WriteFile(p, w.JSON(), 0o644); err != nil {
			return files, fmt.Errorf("write witness: %w", err)
		}
		files = append(files, p)
	}
	return files, nil
}

// WriteHTMLFile writes the page (WriteHTML) to path, and nothing when
// the page cannot be made.
func (t *Table) WriteHTMLFile(path, title string) error {
	var b bytes.Buffer
	if err := t.WriteHTML(&b, title); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
