package relaycheck

import (
	"encoding/json"
	"fmt"
	"strings"
)

// CheckInfo names one check of the probe: its id in reports, the
// requirement it bears on, and what it does in a line.
type CheckInfo struct {
	ID          string
	Requirement Requirement
	About       string
}

// Checks is every check the probe runs, by requirement in report order
// (TestCatalogueIsWhatTheProbeRuns keeps it equal to what Probe reports).
var Checks = []CheckInfo{
	{"cap-prefix", ReqPrefix, "a capped answer is the newest events of the filter"},
	{"bounds-pinned", ReqPrefix, "the pinned window {since: T, until: T} holds every event at T (bounds inclusive)"},
	{"bounds-since", ReqPrefix, "since is inclusive"},
	{"bounds-until", ReqPrefix, "until is inclusive"},
	{"order-ties", ReqTieOrder, "a cap inside one second keeps the lowest ids, in order (chance pass < 1e-3)"},
	{"order-newest", ReqPrefix, "a cap across seconds keeps the newest"},
	{"answers-valid", ReqPrefix, "every answer: valid ids and signatures, matching its filter, within its limit"},
	{"cap-stable", ReqCap, "windows differing only in time bounds get the same cap"},
	{"floor", ReqFloor, "a limit of 2 over many matches delivers 2"},
	{"floor-pinned", ReqFloor, "the pinned window asked for 2 delivers 2"},
	{"push", ReqPush, "an event accepted after a subscription's EOSE reaches it (sequential)"},
	{"push-settled", ReqPushSettled, "an event accepted " + PushSettle.String() + " or more after a subscription's EOSE reaches it (sequential)"},
	{"barrier", ReqBarrier, "an event a query reads was pushed to the fence before that query's EOSE (sequential)"},
	{"atomic", ReqAtomic, "a query racing a replacement finds the old or the new version, never neither or an older one (sequential)"},
	{"fresh-after-write", ReqFresh, "a filter, an acknowledged write, the same filter: the answer holds the write"},
	{"fresh-repeat", ReqFresh, "a write, then the same filter twice: both answers hold it"},
	{"subs-fence", ReqSubs, "the oldest subscription still receives once the load's two are open"},
	{"subs-capacity", ReqSubs, "up to 64 subscriptions on one connection, none silently evicted"},
	{"replace-newer", ReqReplacement, "a newer version replaces the stored one"},
	{"replace-older", ReqReplacement, "an older version arriving second is not kept beside the newer"},
	{"replace-same-high-first", ReqReplacement, "same second, higher id first: the lower id is kept"},
	{"replace-same-low-first", ReqReplacement, "same second, lower id first: the higher id is not kept"},
	{"tags", ReqTags, "a #t filter under a cap delivers only tagged events"},
	{"collateral-d", ReqNoCollateral, "events with d = read-state, read-state: or empty delete no read-state:* coordinate"},
}

// RequirementList is -list: each requirement, whether the gate needs it,
// and the checks that decide it.
func RequirementList() string {
	var b strings.Builder
	for _, req := range allRequirements {
		gated := "reported"
		for _, lr := range LoadRequirements {
			if lr == req {
				gated = "gated"
			}
		}
		fmt.Fprintf(&b, "%s (%s)\n", req, gated)
		for _, c := range Checks {
			if c.Requirement == req {
				fmt.Fprintf(&b, "  %-24s %s\n", c.ID, c.About)
			}
		}
	}
	return b.String()
}

// FailureJSON is the JSON a machine reader gets when the probe could not
// start (the relay unreachable): the relay, the unknown verdict and why.
func FailureJSON(relay string, err error) []byte {
	data, _ := json.MarshalIndent(struct {
		Relay   string  `json:"relay"`
		Verdict Verdict `json:"verdict"`
		Error   string  `json:"error"`
	}{relay, Unknown, Printable(err.Error())}, "", "  ")
	return data
}
