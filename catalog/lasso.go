package catalog

import (
	"encoding/json"
	"fmt"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/mutants"
)

// LassoKind is the kind a lasso file names, or "" for any other file: the
// walk's and the community properties' lassos are files of their own
// packages (a universe config or a property where a witness names a
// universe), so a replay reads them before the witness format.
func LassoKind(data []byte) string {
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

// ReplayLasso replays a walk or community lasso under the rule set named
// rules ("" for the one the file names). It returns the rendering when
// the loop is reproduced (the property fails along it); reproduced is
// false, with the reason, when the loop does not hold under those rules;
// err is a bad file or an unknown rule set, and nothing ran.
func ReplayLasso(data []byte, rules string) (rendering string, reproduced bool, err error) {
	var rerr error
	switch LassoKind(data) {
	case history.KindWalkLiveness:
		l, name, perr := history.ParseLasso(data)
		if perr != nil {
			return "", false, perr
		}
		if rules != "" {
			name = rules
		}
		r, ok := mutants.HistoryRuleSet(name)
		if !ok {
			return "", false, fmt.Errorf("unknown walk rule set %q", name)
		}
		rendering, rerr = history.ReplayLasso(l, r)
	case community.KindLiveness:
		l, p, perr := community.ParseLasso(data)
		if perr != nil {
			return "", false, perr
		}
		name := l.Rules
		if rules != "" {
			name = rules
		}
		r, ok := mutants.CommunityRuleSet(name)
		if !ok {
			return "", false, fmt.Errorf("unknown community rule set %q", name)
		}
		rendering, rerr = community.ReplayLasso(p, l, r)
	default:
		return "", false, fmt.Errorf("not a walk or community lasso")
	}
	if rerr != nil {
		return rerr.Error(), false, nil
	}
	return rendering, true, nil
}
