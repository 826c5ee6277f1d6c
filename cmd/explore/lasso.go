package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/mutants"
)

// lassoKind is the kind a lasso file names: the walk's and the community
// properties' lassos are files of their own packages (a universe config
// or a property in place of the explorer's universe name), so -replay
// reads them before the witness format.
func lassoKind(data []byte) string {
	var head struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(data, &head) != nil {
		return ""
	}
	switch head.Kind {
	case history.KindWalkLiveness, community.KindLiveness:
		return head.Kind
	}
	return ""
}

// replayLasso replays a walk or community lasso under the rule set the
// file names, or the one -rules names: exit 1 when the loop is reproduced
// (the property fails along it), 0 when it is not, 2 when the file or the
// rule set is bad.
func replayLasso(o *options, kind string, data []byte, stdout, stderr io.Writer) int {
	var rendering string
	var err error
	switch kind {
	case history.KindWalkLiveness:
		l, name, perr := history.ParseLasso(data)
		if perr != nil {
			return usageError(stderr, fmt.Errorf("%s: %v", o.replay, perr))
		}
		if o.isSet("rules") {
			name = o.rules
		}
		rules, ok := mutants.HistoryRuleSet(name)
		if !ok {
			return usageError(stderr, fmt.Errorf("%s: unknown walk rule set %q", o.replay, name))
		}
		rendering, err = history.ReplayLasso(l, rules)
	default:
		l, p, perr := community.ParseLasso(data)
		if perr != nil {
			return usageError(stderr, fmt.Errorf("%s: %v", o.replay, perr))
		}
		name := l.Rules
		if o.isSet("rules") {
			name = o.rules
		}
		rules, ok := mutants.CommunityRuleSet(name)
		if !ok {
			return usageError(stderr, fmt.Errorf("%s: unknown community rule set %q", o.replay, name))
		}
		rendering, err = community.ReplayLasso(p, l, rules)
	}
	if err != nil {
		fmt.Fprintf(stdout, "not reproduced: %v\n", err)
		return exitOK
	}
	fmt.Fprintf(stdout, "%s\nreproduced: the loop repeats for ever under fair scheduling (%s)\n", rendering, kind)
	return exitViolation
}
