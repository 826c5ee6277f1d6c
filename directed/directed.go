package directed

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// Check is a named invariant checked over a cube of parameter points:
// histories and deliveries the bounded search cannot reach (deep histories,
// stale and split deliveries, legacy rewrites). Every decision inside it goes
// through the *model.Rules it is given, so a mutant changes both what
// happens and what it is checked against.
type Check struct {
	// Key names the check uniquely (witness files, -only).
	Key string
	// Label is the invariant's number in the formal note's table ("I5c").
	Label string
	// Name describes the invariant in a few words.
	Name   string
	Params []Param
	// TieIndependent checks run once; the others once per tie policy.
	TieIndependent bool
	// SpecText marks a check that asserts what today's spec text decides
	// (an outcome or an arithmetic the text states) rather than a property
	// the protocol needs to stay safe: a rule set failing it differs from
	// the text without being shown unsafe. The conformance checks C1-C8
	// are; every other check asserts safety (Class).
	SpecText bool
	// Cube enumerates the points in a fixed order.
	Cube func(rules *model.Rules) []Point
	// Prepare returns the evaluator of one point; it may precompute, and the
	// evaluator must be safe for concurrent use.
	Prepare func(rules *model.Rules) func(Point) Outcome
}

// Param is one dimension of a cube. With Enum set, values are indexes into
// it and print as its strings.
type Param struct {
	Name string
	Enum []string
}

// Point is one parameter point, aligned with the check's Params.
type Point []int32

// Outcome is the result at one point.
type Outcome struct {
	// Violation names the violated invariant; empty when it held.
	Violation string
	Detail    string
	// Tally names facts counted across the cube (a suppression, an
	// ancestor class, a confirmed hazard).
	Tally []string
}

// Result is one check under one tie policy.
type Result struct {
	Check      *Check
	Tie        model.TiePolicy
	Points     int
	Violations int
	Tallies    map[string]int
	// Witness is the first failing point in cube order.
	Witness *witnessfile.Witness
	Elapsed time.Duration
}

// Run evaluates every point of d's cube, in parallel on workers
// (0: GOMAXPROCS); results are combined in cube order.
func Run(d *Check, rules *model.Rules, workers int) Result {
	start := time.Now()
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	pts := d.Cube(rules)
	eval := d.Prepare(rules)
	outs := make([]Outcome, len(pts))
	const piece = 512
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, (len(pts)+piece-1)/piece) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				p := int(next.Add(1)-1) * piece
				if p >= len(pts) {
					return
				}
				for i := p; i < min(p+piece, len(pts)); i++ {
					outs[i] = eval(pts[i])
				}
			}
		}()
	}
	wg.Wait()
	res := Result{Check: d, Tie: rules.Tie, Points: len(pts), Tallies: map[string]int{}}
	for i, o := range outs {
		for _, t := range o.Tally {
			res.Tallies[t]++
		}
		if o.Violation == "" {
			continue
		}
		res.Violations++
		if res.Witness == nil {
			res.Witness = &witnessfile.Witness{Kind: witnessfile.KindDirected, Check: d.Key, Tie: rules.Tie.String(), Rules: rules.Name,
				Invariant: o.Violation, Detail: o.Detail, Point: d.params(pts[i])}
			res.Witness.Text = res.Witness.DirectedText()
		}
	}
	res.Elapsed = time.Since(start)
	return res
}

// RunSuite runs every directed check (or those whose key is in only) under
// each tie policy; tie-independent checks run once.
func RunSuite(rules *model.Rules, ties []model.TiePolicy, workers int, only map[string]bool) []Result {
	var out []Result
	for _, d := range Checks() {
		if only != nil && !only[d.Key] {
			continue
		}
		if d.TieIndependent {
			out = append(out, Run(d, rules.WithTie(model.ClearWins), workers))
			continue
		}
		for _, t := range ties {
			out = append(out, Run(d, rules.WithTie(t), workers))
		}
	}
	return out
}

// Checks lists the directed checks in the order they run.
func Checks() []*Check {
	var out []*Check
	out = append(out, lawChecks()...)
	out = append(out, registerChecks()...)
	out = append(out, publicationChecks()...)
	out = append(out, transportChecks()...)
	out = append(out, legacyChecks()...)
	out = append(out, conformanceChecks()...)
	return out
}

// Verdict classes of a check: what it asserts.
const (
	ClassSafety   = "safety"
	ClassSpecText = "spec-text conformance"
)

// Class says what the check asserts: ClassSpecText or ClassSafety.
func (d *Check) Class() string {
	if d.SpecText {
		return ClassSpecText
	}
	return ClassSafety
}

// Lookup finds a directed check by key.
func Lookup(key string) (*Check, error) {
	var keys []string
	for _, d := range Checks() {
		if d.Key == key {
			return d, nil
		}
		keys = append(keys, d.Key)
	}
	return nil, fmt.Errorf("unknown directed check %q (known: %s)", key, strings.Join(keys, ", "))
}

// OnlySet is the set of checks a comma-separated list of keys names (nil
// for the empty list: every check), or the first unknown key.
func OnlySet(keys string) (map[string]bool, error) {
	if keys == "" {
		return nil, nil
	}
	m := map[string]bool{}
	for _, k := range strings.Split(keys, ",") {
		if _, err := Lookup(k); err != nil {
			return nil, err
		}
		m[k] = true
	}
	return m, nil
}

func (d *Check) params(p Point) witnessfile.Params {
	out := make(witnessfile.Params, len(p))
	for i, v := range p {
		pv := witnessfile.ParamValue{Name: d.Params[i].Name, Num: int64(v)}
		if e := d.Params[i].Enum; e != nil {
			pv.Str, pv.IsStr = e[v], true
		}
		out[i] = pv
	}
	return out
}

// point converts witness parameters back to a point of d.
func (d *Check) point(ps witnessfile.Params) (Point, error) {
	if len(ps) != len(d.Params) {
		return nil, fmt.Errorf("check %s has %d parameters, the witness %d", d.Key, len(d.Params), len(ps))
	}
	p := make(Point, len(ps))
	for i, pv := range ps {
		want := d.Params[i]
		if pv.Name != want.Name {
			return nil, fmt.Errorf("parameter %d is %q, want %q", i+1, pv.Name, want.Name)
		}
		if want.Enum != nil {
			idx := -1
			for k, s := range want.Enum {
				if pv.IsStr && s == pv.Str {
					idx = k
				}
			}
			if idx < 0 {
				return nil, fmt.Errorf("parameter %s: %q is not one of %q", pv.Name, pv.Str, want.Enum)
			}
			p[i] = int32(idx)
			continue
		}
		if pv.IsStr || pv.Num < -1<<31 || pv.Num >= 1<<31 {
			return nil, fmt.Errorf("parameter %s: want an integer", pv.Name)
		}
		p[i] = int32(pv.Num)
	}
	return p, nil
}

// Replay re-runs a directed witness under the rule set it names, found
// through rules (a catalogue lookup by name). An error (wrapping
// witnessfile.ErrBad) means the witness does not fit; otherwise the result
// says whether its invariant failed again at its point.
func Replay(w *witnessfile.Witness, rules func(name string) (*model.Rules, error)) (*witnessfile.Replayed, error) {
	if w.Kind != witnessfile.KindDirected {
		return nil, witnessfile.Bad("kind %q is not %s", w.Kind, witnessfile.KindDirected)
	}
	d, err := Lookup(w.Check)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	tie, err := model.ParseTiePolicy(w.Tie)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	rs, err := rules(w.Rules)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	rs = rs.WithTie(tie)
	p, err := d.point(w.Point)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	in := false
	for _, q := range d.Cube(rs) {
		if slices.Equal(p, q) {
			in = true
			break
		}
	}
	if !in {
		return nil, witnessfile.Bad("point %s is not in the cube of %s", w.Point, d.Key)
	}
	o := d.Prepare(rs)(p)
	res := &witnessfile.Replayed{Reproduced: o.Violation == w.Invariant}
	if o.Violation != "" {
		res.Found = []string{o.Violation + ": " + o.Detail}
	}
	got := *w
	got.Detail = o.Detail
	if o.Violation == "" {
		got.Detail = "(holds at this point)"
	}
	res.Text = got.DirectedText()
	return res, nil
}
