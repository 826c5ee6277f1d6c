package model

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A ruleWorkload drives the public API with a given Rules value. The seam
// test below replaces every function field of Rules with a recording
// wrapper, runs every workload, and fails for any field no workload
// reached: a field nothing calls is a rule a mutant cannot change.
//
// To cover a new field, add a workload that reaches it through a public
// entry point, here or from the test file of the code that calls it:
//
//	func init() {
//		ruleWorkloads = append(ruleWorkloads, ruleWorkload{"slot split", func(t *testing.T, r *Rules) { … }})
//	}
//
// Workloads must use the Rules they are given (never Proposed()) and should
// check their results, so that a wrapper which stopped calling the original
// would be noticed. A new field must also be listed on every rulePath that
// decides through it (below).
type ruleWorkload struct {
	name string
	run  func(t *testing.T, rules *Rules)
}

var ruleWorkloads = []ruleWorkload{
	{"replica actions", workloadActions},
	{"publish and receive", workloadPublishReceive},
	{"parse blob", workloadParse},
	{"merge blobs", workloadMerge},
	{"legacy parse", workloadLegacyParse},
}

func workloadActions(t *testing.T, rules *Rules) {
	r := NewReplica("a")
	r.Rules = rules
	r.Advance("chan", 100)
	mustDo(t, r.MarkUnread("chan"))
	if !r.Live("chan") || r.Reg("chan") != (Reg{1, 0, 100}) {
		t.Fatalf("after mark-unread: live=%v reg=%v", r.Live("chan"), r.Reg("chan"))
	}
	mustDo(t, r.MarkRead("chan", 120))
	if r.Live("chan") || r.Reg("chan") != (Reg{1, 2, 100}) {
		t.Fatalf("after mark-read: live=%v reg=%v", r.Live("chan"), r.Reg("chan"))
	}
	if !r.Compact("chan") || r.Reg("chan") != (Reg{0, 2, 0}) {
		t.Fatalf("after compact: %v", r.Reg("chan"))
	}
}

func workloadPublishReceive(t *testing.T, rules *Rules) {
	a, b := NewReplica("a"), NewReplica("b")
	a.Rules, b.Rules = rules, rules
	a.Advance("ov_s:evil", 5) // escaped on publish, unescaped on receive
	a.Advance("chan", 100)
	mustDo(t, a.MarkUnread("chan"))
	pub := a.Publish()
	if _, ok := pub.Value("esc:ov_s:evil"); !ok {
		t.Fatalf("raw ov_s:evil not escaped: %v", pub.Contexts)
	}
	if drops := b.Receive(pub); len(drops) != 0 {
		t.Fatalf("receive dropped %v", drops)
	}
	if b.Frontier("ov_s:evil") != 5 || !b.Live("chan") {
		t.Fatalf("receiver: frontier %d live %v", b.Frontier("ov_s:evil"), b.Live("chan"))
	}
	// A second publication joins into an existing register.
	mustDo(t, b.MarkRead("chan", 150))
	a.Receive(b.Publish())
	if a.Live("chan") || a.NeedsRepublish() == false {
		t.Fatalf("floor did not reach a, or a does not republish its change")
	}
}

func workloadParse(t *testing.T, rules *Rules) {
	b, rep, err := ParseBlobWith(rules, []byte(blobWith(`"chan":1,"ov_s:chan":2,"ov_c:chan":1,"ov_b:chan":1,"x":"bad","ov_s:p":1`)))
	if err != nil || len(b.Contexts) != 4 || len(rep.Drops) != 2 {
		t.Fatalf("parse: %v kept %v dropped %v", err, b.Contexts, rep.Drops)
	}
}

func workloadMerge(t *testing.T, rules *Rules) {
	x := Blob{V: 1, ClientID: "x", Contexts: []Entry{{"c", 5}, {"ov_b:c", 5}, {"ov_c:c", 0}, {"ov_s:c", 1}}}
	y := Blob{V: 1, ClientID: "y", Contexts: []Entry{{"c", 9}, {"ov_c:c", 3}}}
	st := MergeBlobs(rules, x, y)
	if st.Frontiers["c"] != 9 || st.Regs["c"] != (Reg{1, 3, 5}) {
		t.Fatalf("merged %v %v", st.Frontiers, st.Regs)
	}
}

func workloadLegacyParse(t *testing.T, rules *Rules) {
	b, _, err := ParseBlobLegacy(rules, []byte(blobWith(`"ov_s:p":1,"a":2`)))
	if err != nil || len(b.Contexts) != 2 {
		t.Fatalf("legacy parse: %v %v", err, b.Contexts)
	}
}

// wrapRuleFuncs replaces every func field of the struct v (recursing into
// nested struct fields) with a wrapper that records its path in hits and
// calls the original. It returns the paths of the wrapped fields.
func wrapRuleFuncs(t *testing.T, v reflect.Value, path string, hits map[string]int) []string {
	var paths []string
	for i := range v.NumField() {
		f, sf := v.Field(i), v.Type().Field(i)
		p := path + "." + sf.Name
		switch f.Kind() {
		case reflect.Func:
			if !f.CanSet() {
				t.Errorf("%s is unexported: a mutant cannot replace it", p)
				continue
			}
			if f.IsNil() {
				t.Errorf("%s is nil in Proposed()", p)
				continue
			}
			orig := reflect.ValueOf(f.Interface())
			variadic := f.Type().IsVariadic()
			f.Set(reflect.MakeFunc(f.Type(), func(args []reflect.Value) []reflect.Value {
				hits[p]++
				if variadic {
					return orig.CallSlice(args)
				}
				return orig.Call(args)
			}))
			paths = append(paths, p)
		case reflect.Struct:
			paths = append(paths, wrapRuleFuncs(t, f, p, hits)...)
		}
	}
	return paths
}

// TestRulesEveryFieldReached is the seam test: every function field of
// Rules, nested SlotRules and LoadRules included, must be called by some
// workload, through the Rules value the workload was handed.
func TestRulesEveryFieldReached(t *testing.T) {
	rules := Proposed()
	hits := map[string]int{}
	fields := wrapRuleFuncs(t, reflect.ValueOf(rules).Elem(), "Rules", hits)
	for _, want := range []string{"Rules.Join", "Rules.Unescape", "Rules.ValidateGroup"} {
		if !slices.Contains(fields, want) {
			t.Fatalf("reflection missed %s: wrapped %v", want, fields)
		}
	}
	reachedBy := map[string][]string{}
	for _, w := range ruleWorkloads {
		before := make(map[string]int, len(hits))
		for k, n := range hits {
			before[k] = n
		}
		t.Run(w.name, func(t *testing.T) { w.run(t, rules) })
		for _, f := range fields {
			if hits[f] > before[f] {
				reachedBy[f] = append(reachedBy[f], w.name)
			}
		}
	}
	for _, f := range fields {
		if hits[f] == 0 {
			t.Errorf("%s is never reached: no workload in ruleWorkloads calls it (add a ruleWorkload that exercises it through the public API; see the comment on ruleWorkload in rules_test.go)", f)
			continue
		}
		t.Logf("%-32s %5d calls, by %s", f, hits[f], strings.Join(reachedBy[f], ", "))
	}
}

// TestRulesWrapperIsTransparent: the recording wrapper changes nothing the
// workloads can observe, and a replaced field really is what runs (a rule
// set whose Live always says false makes mark-unread invisible).
func TestRulesWrapperIsTransparent(t *testing.T) {
	rules := Proposed()
	wrapRuleFuncs(t, reflect.ValueOf(rules).Elem(), "Rules", map[string]int{})
	for _, w := range ruleWorkloads {
		t.Run(w.name, func(t *testing.T) { w.run(t, rules) })
	}
	never := Proposed()
	never.Live = func(Reg, uint32, TiePolicy) bool { return false }
	r := NewReplica("a")
	r.Rules = never
	r.Advance("chan", 1)
	mustDo(t, r.MarkUnread("chan"))
	if r.Live("chan") {
		t.Fatal("the replica did not decide liveness through its Rules")
	}
}

// A rulePath is one driver entry point and the Rules fields it must decide
// through. The field-reached test above passes as long as some workload
// calls a field, so a driver that bypasses its Rules on one path (calling
// the production function directly) goes unnoticed while another path
// still reaches the field. TestRulesEachPathReachesItsFields runs every
// path alone on a freshly wrapped Proposed() and fails unless the path itself
// reached each field it lists.
type rulePath struct {
	name    string
	run     func(t *testing.T, rules *Rules)
	reaches []string
}

// restored is a replica deciding through rules holding ctx "chan" at
// frontier f with register reg, installed without any rule decision.
func restored(t *testing.T, rules *Rules, f uint32, reg Reg) *Replica {
	r := NewReplica("a")
	r.Rules = rules
	mustDo(t, r.Restore("chan", f, true, reg))
	return r
}

var rulePaths = []rulePath{
	{"Replica.Live", func(t *testing.T, rules *Rules) {
		if !restored(t, rules, 10, Reg{S: 1, B: 10}).Live("chan") {
			t.Fatal("override not live")
		}
	}, []string{"Rules.Live"}},
	{"Replica.MarkUnread", func(t *testing.T, rules *Rules) {
		mustDo(t, restored(t, rules, 10, Reg{}).MarkUnread("chan"))
	}, []string{"Rules.OverrideKeysFit", "Rules.MarkUnread", "Rules.UnreadBase"}},
	{"Replica.MarkRead", func(t *testing.T, rules *Rules) {
		mustDo(t, restored(t, rules, 10, Reg{S: 1, B: 10}).MarkRead("chan", 20))
	}, []string{"Rules.Live", "Rules.MarkRead"}},
	{"Replica.Compact", func(t *testing.T, rules *Rules) {
		if !restored(t, rules, 20, Reg{S: 1, C: 2, B: 10}).Compact("chan") {
			t.Fatal("nothing compacted")
		}
	}, []string{"Rules.Live", "Rules.Canonical", "Rules.CanonicalFrontier"}},
	{"Replica.Candidate", func(t *testing.T, rules *Rules) {
		r := restored(t, rules, 10, Reg{S: 1, B: 10})
		r.Advance("ov_s:evil", 5)
		if _, ok := r.Candidate().Value("esc:ov_s:evil"); !ok {
			t.Fatal("reserved id not escaped")
		}
	}, []string{"Rules.Live", "Rules.Canonical", "Rules.CanonicalFrontier", "Rules.Escape"}},
	{"Replica.Receive", func(t *testing.T, rules *Rules) {
		r := restored(t, rules, 10, Reg{S: 1, B: 10})
		r.Receive(Blob{V: 1, ClientID: "b", Contexts: []Entry{{"chan", 10}, {"esc:ov_s:evil", 5}, {"ov_c:chan", 2}}})
		if r.Reg("chan") != (Reg{S: 1, C: 2, B: 10}) || r.Frontier("ov_s:evil") != 5 {
			t.Fatalf("received %v, frontier %d", r.Reg("chan"), r.Frontier("ov_s:evil"))
		}
	}, []string{"Rules.GroupKey", "Rules.Unescape", "Rules.ValidateGroup", "Rules.Join"}},
	{"Replica.Receive (legacy, overrides dropped)", func(t *testing.T, rules *Rules) {
		r := NewLegacyReplica("l", LegacyDropOverrides)
		r.Rules = rules
		if drops := r.Receive(Blob{V: 1, ClientID: "b", Contexts: []Entry{{"chan", 10}, {"ov_s:chan", 1}}}); len(drops) != 1 {
			t.Fatalf("dropped %v", drops)
		}
	}, []string{"Rules.GroupKey"}},
	{"Replica.NeedsRepublish", func(t *testing.T, rules *Rules) {
		if !restored(t, rules, 10, Reg{}).NeedsRepublish() {
			t.Fatal("a never-published frontier needs no publication")
		}
	}, []string{"Rules.Slots.Republish"}},
	{"Covers", func(t *testing.T, rules *Rules) {
		old := Blob{V: 1, ClientID: "o", Contexts: []Entry{{"c", 5}, {"ov_b:c", 5}, {"ov_c:c", 0}, {"ov_s:c", 1}}}
		if Covers(rules, old, Blob{V: 1, ClientID: "n"}) {
			t.Fatal("an empty blob covers a live register")
		}
	}, []string{"Rules.GroupKey", "Rules.ValidateGroup", "Rules.Join", "Rules.Live", "Rules.Canonical"}},
	{"parse blob", workloadParse, []string{"Rules.SanitizeValue", "Rules.GroupKey", "Rules.ValidateGroup", "Rules.CountEntries"}},
	{"legacy parse", workloadLegacyParse, []string{"Rules.SanitizeValue", "Rules.CountEntries"}},
	{"merge blobs", workloadMerge, []string{"Rules.GroupKey", "Rules.Unescape", "Rules.ValidateGroup", "Rules.Join"}},
	{"slot split", workloadSlotSplit, []string{"Rules.GroupKey", "Rules.Slots.GroupOf", "Rules.Slots.Assign", "Rules.Slots.Dominated", "Rules.Slots.EvictOrder"}},
	{"re-publish after eviction", workloadRepublishEvicted, []string{"Rules.Slots.Republish", "Rules.Slots.GroupOf", "Rules.Slots.Assign", "Rules.Escape"}},
	{"identify and write", workloadIdentifyWrite, []string{"Rules.Slots.Role", "Rules.Slots.CreatedAt", "Rules.Slots.Assign", "Rules.Escape"}},
	{"deletion plan", workloadDeletion, []string{"Rules.Slots.MayDelete", "Rules.Live", "Rules.Canonical", "Rules.Join"}},
	{"channel read", workloadChannelRead, []string{"Rules.Slots.ChannelRead"}},
	{"full-state load", workloadLoad, []string{"Rules.Load.Floor", "Rules.Load.EnumerationFilter", "Rules.Load.Retain",
		"Rules.Load.CursorFrom", "Rules.Load.PinWindow", "Rules.Load.Exhausted", "Rules.Load.Finished",
		"Rules.Load.FenceEstablished", "Rules.Load.FenceCountsForC", "Rules.Load.FenceMovesCursor",
		"Rules.Load.PushIsResult", "Rules.Load.Passes", "Rules.Load.OrderEvidence", "Rules.Load.OverLimit"}},
}

func TestRulesEachPathReachesItsFields(t *testing.T) {
	listed := map[string]bool{}
	var fields []string
	for _, p := range rulePaths {
		rules := Proposed()
		hits := map[string]int{}
		fields = wrapRuleFuncs(t, reflect.ValueOf(rules).Elem(), "Rules", hits)
		t.Run(p.name, func(t *testing.T) {
			p.run(t, rules)
			for _, f := range p.reaches {
				listed[f] = true
				if !slices.Contains(fields, f) {
					t.Errorf("%s is not a Rules field", f)
				} else if hits[f] == 0 {
					t.Errorf("%s does not decide through %s: the driver bypasses its Rules on this path", p.name, f)
				}
			}
		})
	}
	for _, f := range fields {
		if !listed[f] {
			t.Errorf("%s is on no path of rulePaths: add the entry points that must decide through it", f)
		}
	}
}

// TestRulesTieReachesLive: every path that decides liveness does so under
// the rule set's own Tie. Each path runs on a set-wins rule set whose Live
// records the policy it was asked under.
func TestRulesTieReachesLive(t *testing.T) {
	for _, p := range rulePaths {
		if !slices.Contains(p.reaches, "Rules.Live") {
			continue
		}
		rules := Proposed().WithTie(SetWins)
		asked := map[TiePolicy]int{}
		live := rules.Live
		rules.Live = func(g Reg, f uint32, tie TiePolicy) bool {
			asked[tie]++
			return live(g, f, tie)
		}
		t.Run(p.name, func(t *testing.T) {
			p.run(t, rules)
			if asked[SetWins] == 0 || asked[ClearWins] != 0 {
				t.Errorf("Live asked under %v, want set-wins only", asked)
			}
		})
	}
}

func TestWithTie(t *testing.T) {
	spec := Proposed()
	set := spec.WithTie(SetWins)
	if spec.Tie != ClearWins || set.Tie != SetWins || set.Name != spec.Name || set == spec {
		t.Fatalf("spec tie %v, WithTie %v (name %q)", spec.Tie, set.Tie, set.Name)
	}
	tie := Reg{S: 2, C: 2, B: 10}
	if spec.IsLive(tie, 10) || !set.IsLive(tie, 10) {
		t.Fatalf("S == C: clear-wins live %v, set-wins live %v", spec.IsLive(tie, 10), set.IsLive(tie, 10))
	}
	r := restored(t, set, 10, tie)
	if !r.Live("chan") {
		t.Fatal("the replica did not decide the tie by its Rules' Tie")
	}
}
