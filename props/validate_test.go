package props

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/relaysim"
)

// extreme is a Source that always draws the low or the high end of a
// range: the generators' extremes, which the validator's bounds must be.
type extreme struct{ high bool }

func (e extreme) IntRange(lo, hi int, _ string) int {
	if e.high {
		return hi
	}
	return lo
}

func (e extreme) Bool(string) bool { return e.high }

// The bounds are the generators' ranges: drawing every range's ends gives
// exactly the bounds' ends.
func TestBoundsAreTheGeneratorsRanges(t *testing.T) {
	if c := DrawConfig(extreme{false}, "conformant"); c.Cap != MinCap || c.N != MinN {
		t.Errorf("lowest draw %v, bounds cap %d n %d", c, MinCap, MinN)
	}
	if c := DrawConfig(extreme{true}, "conformant"); c.Cap != MaxCap || c.N != MaxN {
		t.Errorf("highest draw %v, bounds cap %d n %d", c, MaxCap, MaxN)
	}
	for _, p := range relaysim.All(MinCap) {
		lo, hi := DrawConfig(extreme{false}, p.Name), DrawConfig(extreme{true}, p.Name)
		want := 0
		if p.MaxSubs > 0 {
			want = MaxOthers
		}
		if lo.Others != 0 || hi.Others != want {
			t.Errorf("%s: others drawn %d..%d, bound 0..%d", p.Name, lo.Others, hi.Others, want)
		}
		if err := ValidateConfig(hi); err != nil {
			t.Errorf("%s: highest draw %v refused: %v", p.Name, hi, err)
		}
	}
	if n := len(DrawSetup(extreme{true})); n != maxSetupSteps {
		t.Errorf("longest setup %d steps, bound %d", n, maxSetupSteps)
	}
	if n := len(DrawInterleaving(extreme{true})); n != maxInterleaved {
		t.Errorf("longest interleaving %d steps, bound %d", n, maxInterleaved)
	}
	// Every operation a scenario can pick (openOps: interleavingOps and
	// OpOpen), at both ends of its ranges.
	for i, op := range openOps {
		for _, high := range []bool{false, true} {
			s := drawStep(pickAt{extreme{high}, i}, openOps)
			if s.Op != op {
				t.Fatalf("pick %d drew %s, want %s", i, s.Op, op)
			}
			if err := validateStep(s); err != nil {
				t.Errorf("drawn step %+v refused: %v", s, err)
			}
		}
	}
	for _, high := range []bool{false, true} {
		for _, s := range DrawSetup(extreme{high}) {
			if err := validateStep(s); err != nil {
				t.Errorf("drawn setup step %+v refused: %v", s, err)
			}
		}
	}
}

// pickAt answers the operation choice with index i and every other
// choice from its inner source.
type pickAt struct {
	extreme
	i int
}

func (p pickAt) IntRange(lo, hi int, label string) int {
	if label == "op" {
		return p.i
	}
	return p.extreme.IntRange(lo, hi, label)
}

// Scenarios the seeded searches draw validate, and so does every witness
// this package keeps.
func TestDrawnAndStoredWitnessesValidate(t *testing.T) {
	for c := range 2000 {
		src := NewSeeded(1, c)
		steps := append(DrawSetup(src), Step{Op: OpStart})
		steps = append(steps, DrawInterleaving(src)...)
		w := Witness{Check: CheckSoundness, Config: DrawConfig(src, "conformant"), Steps: steps}
		if err := ValidateWitness(w); err != nil {
			t.Fatalf("case %d refused: %v", c, err)
		}
	}
	files, err := filepath.Glob("testdata/witness/*.json")
	if err != nil || len(files) < 20 {
		t.Fatalf("%d witness files: %v", len(files), err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var w Witness
		if err := json.Unmarshal(data, &w); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := ValidateWitness(w); err != nil {
			t.Errorf("%s refused: %v", f, err)
		}
	}
}

// A witness no search could write is refused with its field named.
func TestValidateWitnessRefuses(t *testing.T) {
	good := func() Witness {
		return Witness{Check: CheckSoundness, Config: Config{Profile: "conformant", Cap: 2, N: 2},
			Steps: []Step{{Op: OpPublish, When: WhenAt, At: 70}, {Op: OpStart}, {Op: OpRound}}}
	}
	if err := ValidateWitness(good()); err != nil {
		t.Fatalf("good witness refused: %v", err)
	}
	for _, tc := range []struct {
		name  string
		edit  func(*Witness)
		field string
	}{
		{"check", func(w *Witness) { w.Check = "liveness" }, "check"},
		{"profile", func(w *Witness) { w.Config.Profile = "nonesuch" }, "config.profile"},
		{"cap 0", func(w *Witness) { w.Config.Cap = 0 }, "config.cap 0"},
		{"cap 1", func(w *Witness) { w.Config.Cap = 1 }, "config.cap 1"},
		{"cap -2", func(w *Witness) { w.Config.Cap = -2 }, "config.cap -2"},
		{"cap 6", func(w *Witness) { w.Config.Cap = 6 }, "config.cap 6"},
		{"n 0", func(w *Witness) { w.Config.N = 0 }, "config.n"},
		{"n 1000", func(w *Witness) { w.Config.N = 1000 }, "config.n"},
		{"too many steps", func(w *Witness) { w.Steps = make([]Step, MaxSteps+1) }, "steps: 51"},
		{"unknown op", func(w *Witness) { w.Steps[2].Op = "explode" }, "steps[2]: op"},
		{"foreign count", func(w *Witness) { w.Steps[0] = Step{Op: OpForeign, At: 70, Count: 1000000} }, "steps[0]: foreign count 1000000"},
		{"foreign at", func(w *Witness) { w.Steps[0] = Step{Op: OpForeign, At: -5, Count: 1} }, "steps[0]: foreign at -5"},
		{"publish when", func(w *Witness) { w.Steps[0].When = "later" }, "steps[0]: publish when"},
		{"publish slot", func(w *Witness) { w.Steps[0].I = 99 }, "steps[0]: publish i 99"},
		{"delete victim", func(w *Witness) { w.Steps[2] = Step{Op: OpDelete, I: -1} }, "steps[2]: delete i -1"},
		{"tick", func(w *Witness) { w.Steps[2] = Step{Op: OpTick, I: 1 << 40} }, "steps[2]: tick i"},
		{"start with i", func(w *Witness) { w.Steps[1].I = 3 }, "steps[1]: start carries no i"},
		{"round with at", func(w *Witness) { w.Steps[2].At = 3 }, "steps[2]: round carries no at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := good()
			tc.edit(&w)
			err := ValidateWitness(w)
			if err == nil || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("error %v, want one naming %q", err, tc.field)
			}
		})
	}
}
