package main

import (
	"fmt"
	"io"

	"github.com/nip-rs/harness/catalog"
)

// replayLasso replays a walk or community lasso (catalog.ReplayLasso)
// under the rule set the file names, or the one -rules names: exit 1 when
// the loop is reproduced, 0 when it is not, 2 when the file or the rule
// set is bad (and -html then writes no page).
func replayLasso(o *options, kind string, data []byte, stdout, stderr io.Writer) int {
	rules := ""
	if o.isSet("rules") {
		rules = o.rules
	}
	text, reproduced, err := catalog.ReplayLasso(data, rules)
	if err != nil {
		return usageError(stderr, fmt.Errorf("%s: %v", o.replay, err))
	}
	if o.html != "" {
		if err := writeLassoHTML(o.html, data, rules, text, reproduced); err != nil {
			return usageError(stderr, err)
		}
		fmt.Fprintf(stdout, "page written to %s\n", o.html)
	}
	switch {
	case !reproduced:
		fmt.Fprintf(stdout, "not reproduced: %s\n", text)
		return exitOK
	}
	fmt.Fprintf(stdout, "%s\nreproduced: the loop repeats for ever under fair scheduling (%s)\n", text, kind)
	return exitViolation
}
