package catalog

import (
	"fmt"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// ReplayUnder parses a witness file's data (read from path, which the
// errors name) and replays it (Replay) under the rule set and tie policy
// the file names, or under rules and tie where they are not nil. It
// returns the witness as replayed and as the file stored it, beside the
// replay. A difference witness replays under the two rule sets it names
// and takes neither; a rule set is resolved as the file's kind names its
// own (a walk or community witness through its package's, refused by its
// replayer as a bad witness; any other through the override catalogue);
// a tie policy is one policy. Anything refused is an error, and nothing
// ran.
func (c *Catalog) ReplayUnder(path string, data []byte, rules, tie *string) (w, stored *witnessfile.Witness, res *witnessfile.Replayed, err error) {
	w, err = witnessfile.Parse(data)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	kept := *w
	if IsDiffKind(w.Kind) && (rules != nil || tie != nil) {
		// Its replay runs the two rule sets (and the tie) the file names;
		// another name would be printed as replayed and not be.
		return nil, nil, nil, fmt.Errorf("%s: a %s witness replays under the two rule sets it names; -rules and -tie have no meaning with it", path, w.Kind)
	}
	if rules != nil {
		if _, err := c.ex.Rules(*rules); err != nil && w.Kind != history.KindHistory && w.Kind != community.KindCommunity {
			return nil, nil, nil, fmt.Errorf("-rules: %v", err)
		}
		w.Rules = *rules
	}
	if tie != nil {
		if _, err := model.ParseTiePolicy(*tie); err != nil {
			return nil, nil, nil, fmt.Errorf("-tie with -replay: %v (one policy: clear or set)", err)
		}
		w.Tie = *tie
	}
	if res, err = c.Replay(w); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return w, &kept, res, nil
}
