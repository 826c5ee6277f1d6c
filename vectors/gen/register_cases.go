package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/nip-rs/harness/model"
)

const (
	secLive    = "Liveness Predicate; Tie Policy"
	secMerge   = "Merge Rule (Override Registers)"
	secCanon   = "Tombstone Floor; Mandatory Canonical Publication"
	secActions = "Actions"
	secHier    = "Hierarchical Frontier Rule"
	secWriteD  = "Write Discipline"
	max32      = model.MaxU32
)

// counterValues and baseValues span the register's interesting values: zero,
// small, ties, and the uint32 ceiling.
var (
	counterValues = []uint32{0, 1, 2, max32 - 1, max32}
	baseValues    = []uint32{0, 3, max32}
)

func regName(r reg3) string {
	n := func(v uint32) string {
		switch v {
		case max32:
			return "max"
		case max32 - 1:
			return "max-1"
		}
		return fmt.Sprint(v)
	}
	return n(r[0]) + "-" + n(r[1]) + "-" + n(r[2])
}

func gridRegs() []reg3 {
	var rs []reg3
	for _, s := range counterValues {
		for _, c := range counterValues {
			for _, b := range baseValues {
				rs = append(rs, reg3{s, c, b})
			}
		}
	}
	return rs
}

func registerCases() ([]Case, error) {
	var cs []Case
	add := func(id, sec, desc string, in registerInput) {
		cs = append(cs, Case{ID: "register/" + id, Section: sec, Description: desc, Input: in})
	}
	// Liveness at a frontier below, at and past B, under both policies.
	for _, r := range gridRegs() {
		for _, f := range []uint32{r[2], r[2] + 1} {
			if f == 0 && r[2] == max32 {
				continue // r[2]+1 wrapped
			}
			for _, tie := range []string{"clear", "set"} {
				add(fmt.Sprintf("live/%s/f%d/%s", regName(r), f, tie), secLive,
					fmt.Sprintf("liveness of %v at frontier %d under %s-wins", r, f, tie),
					registerInput{Op: "live", Reg: &r, Frontier: u32Ptr(f), Tie: tie})
			}
		}
	}
	// Canonical form at a frontier at and past B.
	for _, r := range gridRegs() {
		for _, f := range []uint32{r[2], 4} {
			add(fmt.Sprintf("canonical/%s/f%d", regName(r), f), secCanon,
				fmt.Sprintf("the publication form of %v at frontier %d", r, f),
				registerInput{Op: "canonical", Reg: &r, Frontier: u32Ptr(f)})
		}
	}
	// Actions.
	for _, r := range gridRegs() {
		add("mark-unread/"+regName(r), secActions, fmt.Sprintf("mark-unread of %v at effective frontier 5", r),
			registerInput{Op: "mark_unread", Reg: &r, Frontier: u32Ptr(5)})
		for _, f := range []uint32{2, 5} {
			add(fmt.Sprintf("mark-read/%s/f%d", regName(r), f), secActions,
				fmt.Sprintf("mark-read of %v after the frontier advanced to %d", r, f),
				registerInput{Op: "mark_read", Reg: &r, Frontier: u32Ptr(f)})
		}
	}
	// Join: a fixed random sample of pairs, each also swapped.
	rng := rand.New(rand.NewPCG(25, 1))
	regs := gridRegs()
	for i := range 30 {
		a, b := regs[rng.IntN(len(regs))], regs[rng.IntN(len(regs))]
		add(fmt.Sprintf("join/%02d", i), secMerge, fmt.Sprintf("join of %v and %v", a, b), registerInput{Op: "join", A: &a, B: &b})
	}
	// Channel read.
	for i, msgs := range [][]channelMessage{
		{},
		{{100, true}},
		{{100, true}, {150, false}},
		{{150, false}, {100, true}, {120, true}},
		{{90, false}},
	} {
		add(fmt.Sprintf("channel-read/%d", i), secWriteD, "a channel read advances to the newest top-level message, never a reply",
			registerInput{Op: "channel_read", Messages: msgs})
	}
	for _, s := range handScripts() {
		add("script/"+s.id, s.sec, s.desc, registerInput{Op: "script", Parents: s.parents, Steps: s.steps})
	}
	for i := range 60 {
		parents, steps := randomScript(rand.New(rand.NewPCG(uint64(i), 2501)))
		add(fmt.Sprintf("script/random-%02d", i), "Actions; Merge Rule; Mandatory Canonical Publication",
			"a seeded random sequence of actions and receipts", registerInput{Op: "script", Parents: parents, Steps: steps})
	}
	return cs, nil
}

var (
	// longCtx is the shortest context id whose override keys exceed the
	// 256-byte key limit.
	longCtx   = "long-" + strings.Repeat("x", model.MaxOverrideContextBytes+1-len("long-"))
	hexThread = "thread:" + strings.Repeat("ab", 32)
	hexMsg    = "msg:" + strings.Repeat("cd", 32)
)

type script struct {
	id, sec, desc string
	parents       map[string]string
	steps         []step
}

func recv(entries map[string]uint32) step {
	return step{Do: "receive", ClientID: "peer", Entries: entries}
}

func handScripts() []script {
	hier := map[string]string{hexThread: "chan", hexMsg: "chan"}
	return []script{
		{"unread-then-read", secActions, "mark-unread then an explicit mark-read clears the override", nil, []step{
			{Do: "advance", Ctx: "c", TS: 10}, {Do: "mark_unread", Ctx: "c"}, {Do: "mark_read", Ctx: "c", TS: 10}}},
		{"unread-then-natural-read", "Liveness Predicate (F <= B)", "a natural read past B ends the override; it is published as a floor", nil, []step{
			{Do: "advance", Ctx: "c", TS: 10}, {Do: "mark_unread", Ctx: "c"}, {Do: "advance", Ctx: "c", TS: 11}, {Do: "compact", Ctx: "c"}}},
		{"unread-ceiling", secActions, "mark-unread at the uint32 ceiling is refused and nothing wraps", nil, []step{
			recv(map[string]uint32{"ov_c:c": max32}), {Do: "mark_unread", Ctx: "c"}}},
		{"unread-key-too-long", "Bounds and Budget (256-byte key limit)", "mark-unread is refused on a 252-byte context id, whose ov_* keys would exceed 256 bytes, and accepted on a 251-byte one; a mark-read there leaves no floor", nil, []step{
			{Do: "advance", Ctx: longCtx, TS: 10}, {Do: "mark_unread", Ctx: longCtx}, {Do: "mark_read", Ctx: longCtx, TS: 11},
			{Do: "advance", Ctx: longCtx[1:], TS: 10}, {Do: "mark_unread", Ctx: longCtx[1:]}}},
		{"read-ceiling-live", secActions, "mark-read at the ceiling with the override live fails", nil, []step{
			recv(map[string]uint32{"c": 5, "ov_s:c": max32, "ov_c:c": 1, "ov_b:c": 9}), {Do: "mark_read", Ctx: "c", TS: 6}}},
		{"read-ceiling-dead", secActions, "mark-read at the ceiling succeeds when the read itself ends the override", nil, []step{
			recv(map[string]uint32{"c": 5, "ov_s:c": max32, "ov_c:c": 1, "ov_b:c": 9}), {Do: "mark_read", Ctx: "c", TS: 10}}},
		{"unread-below-ceiling", secActions, "mark-unread one below the ceiling reaches it", nil, []step{
			recv(map[string]uint32{"ov_c:c": max32 - 1}), {Do: "mark_unread", Ctx: "c"}, {Do: "mark_unread", Ctx: "c"}}},
		{"tie-is-dead", "Tie Policy", "S == C received from a peer is not live under clear-wins", nil, []step{
			recv(map[string]uint32{"c": 3, "ov_s:c": 2, "ov_c:c": 2, "ov_b:c": 5})}},
		{"unread-after-peer-read", secActions, "mark-unread bumps past both counters of a received register", nil, []step{
			recv(map[string]uint32{"c": 3, "ov_s:c": 4, "ov_c:c": 7, "ov_b:c": 3}), {Do: "mark_unread", Ctx: "c"}}},
		{"baseline-lowered", secActions, "mark-unread sets B to the current frontier even when a received B is higher", nil, []step{
			recv(map[string]uint32{"c": 3, "ov_s:c": 1, "ov_c:c": 2, "ov_b:c": 9}), {Do: "mark_unread", Ctx: "c"}, {Do: "advance", Ctx: "c", TS: 4}}},
		{"join-keeps-floor", secMerge, "a received floor suppresses an older live register", nil, []step{
			{Do: "advance", Ctx: "c", TS: 3}, {Do: "mark_unread", Ctx: "c"}, recv(map[string]uint32{"ov_c:c": 5})}},
		{"join-componentwise", secMerge, "registers join componentwise: an older peer triple changes nothing", nil, []step{
			{Do: "advance", Ctx: "c", TS: 3}, {Do: "mark_unread", Ctx: "c"}, {Do: "mark_unread", Ctx: "c"}, recv(map[string]uint32{"ov_s:c": 1, "ov_c:c": 0, "ov_b:c": 9})}},
		{"escape-on-publish", secReserved, "a context id starting with ov_ or esc: is published escaped", nil, []step{
			{Do: "advance", Ctx: "ov_s:x", TS: 4}, {Do: "advance", Ctx: "esc:y", TS: 5}, {Do: "mark_unread", Ctx: "ov_s:x"}}},
		{"unescape-once", secReserved, "receive strips exactly one esc:", nil, []step{
			recv(map[string]uint32{"esc:esc:x": 4, "esc:ov_c:y": 6})}},
		{"virgin-omitted", secCanon, "a register never activated publishes no keys", nil, []step{
			{Do: "advance", Ctx: "c", TS: 4}, recv(map[string]uint32{"ov_s:d": 0, "ov_c:d": 0, "ov_b:d": 0}), {Do: "publish"}}},
		{"publish-canonical-dead", secCanon, "a register dead because the frontier passed B is published as a floor", nil, []step{
			recv(map[string]uint32{"c": 9, "ov_s:c": 3, "ov_c:c": 1, "ov_b:c": 5}), {Do: "publish"}, {Do: "advance", Ctx: "c", TS: 10}}},
		{"thread-under-read-channel", secHier, "mark-unread of a thread records the channel's effective frontier as B", hier, []step{
			{Do: "advance", Ctx: hexThread, TS: 5}, {Do: "advance", Ctx: "chan", TS: 9}, {Do: "mark_unread", Ctx: hexThread}, {Do: "publish"}}},
		{"channel-overtakes-thread", secHier, "a channel read past a thread's B ends the thread's override; it is published as a floor", hier, []step{
			{Do: "advance", Ctx: hexThread, TS: 5}, {Do: "mark_unread", Ctx: hexThread}, {Do: "advance", Ctx: "chan", TS: 9}, {Do: "compact", Ctx: hexThread}}},
		{"msg-under-channel", secHier, "a msg: context's effective frontier folds in its channel", hier, []step{
			{Do: "advance", Ctx: hexMsg, TS: 2}, {Do: "advance", Ctx: "chan", TS: 7}, {Do: "mark_unread", Ctx: hexMsg}, {Do: "mark_read", Ctx: hexMsg, TS: 3}}},
	}
}

// randomScript draws 6 to 10 steps over a few contexts, including escaped
// ids and a thread under a channel.
func randomScript(rng *rand.Rand) (map[string]string, []step) {
	ctxs := []string{"chan", hexThread, "ov_q", "esc:z"}
	parents := map[string]string{hexThread: "chan"}
	vals := []uint32{0, 1, 2, 3, 4, 5, max32 - 1, max32}
	n := 6 + rng.IntN(5)
	var steps []step
	for range n {
		c := ctxs[rng.IntN(len(ctxs))]
		switch rng.IntN(7) {
		case 0, 1:
			steps = append(steps, step{Do: "advance", Ctx: c, TS: uint32(rng.IntN(6))})
		case 2:
			steps = append(steps, step{Do: "mark_unread", Ctx: c})
		case 3:
			steps = append(steps, step{Do: "mark_read", Ctx: c, TS: uint32(rng.IntN(6))})
		case 4:
			steps = append(steps, step{Do: "compact", Ctx: c})
		case 5:
			steps = append(steps, step{Do: "publish"})
		default:
			es := map[string]uint32{model.EscapeKey(c): uint32(rng.IntN(6))}
			s, cc := vals[rng.IntN(len(vals))], vals[rng.IntN(len(vals))]
			if rng.IntN(3) == 0 {
				es[model.PrefixC+c] = max(s, cc)
			} else {
				es[model.PrefixS+c], es[model.PrefixC+c], es[model.PrefixB+c] = s, cc, uint32(rng.IntN(6))
			}
			steps = append(steps, recv(es))
		}
	}
	return parents, steps
}
