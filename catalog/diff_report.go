package catalog

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/cli"
)

// ParseDiffPair reads a difference's two rule sets, "A,B": two names, not
// empty and not the same.
func ParseDiffPair(s string) (a, b string, err error) {
	names := strings.Split(s, ",")
	if len(names) != 2 || names[0] == "" || names[1] == "" || names[0] == names[1] {
		return "", "", fmt.Errorf("-diff %q: want two different rule sets, A,B (see -list)", s)
	}
	return names[0], names[1], nil
}

// DiffFlags are the flags that bound a difference in universe, besides
// the universe, the witness directory and JSON: the depth and tie policy
// of an override universe, the load's seed and cases, the walk's variant
// and depth. with is how an error names the universe (" -universe U", or
// "" for an override universe).
func DiffFlags(universe string) (takes []string, with string) {
	switch universe {
	case LoadDiffUniverse:
		return []string{"seed", "cases"}, " -universe " + universe
	case history.UniverseName:
		return []string{"variant", "depth"}, " -universe " + universe
	}
	return []string{"universe", "depth", "tie"}, ""
}

// Write reports the difference to w as -diff prints it: the JSON document
// alone, or the run line (pair is the flag's A,B), the lines, and the
// witness written if any.
func (o *DiffOutcome) Write(w io.Writer, pair string, asJSON bool) {
	if asJSON {
		b, _ := json.MarshalIndent(o.Doc, "", "  ") // plain data always marshals
		fmt.Fprintln(w, string(b))
		return
	}
	fmt.Fprintf(w, "explore -diff=%s %s (version %s)\n", pair, o.Bounds, cli.Version())
	for _, l := range o.Lines {
		fmt.Fprintln(w, l)
	}
	if o.Witness != "" {
		fmt.Fprintf(w, "witness written to %s (replay: explore -replay %s)\n", o.Witness, o.Witness)
	}
}
