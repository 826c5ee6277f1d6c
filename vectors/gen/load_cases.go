package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/relaysim"
)

// The load scenarios are drawn from the props generator of seed
// loadSeed: per relay profile, cases 0, 1, ... up to loadDraws, of which
// a case is kept when one of its loads ends in a class (verdict, reason,
// and whether a complete verdict was false) no earlier case of the
// profile reached, so that every outcome a profile can give is in the
// file once, in few vectors.
const (
	loadSeed  = 30078
	loadDraws = 60
	// loadInterleaved bounds the steps drawn while a load runs.
	loadInterleaved = 30
)

// loadScenario is one props scenario to record.
type loadScenario struct {
	id, desc string
	// sec is the section the vector cites; empty means secLoad.
	sec      string
	cfg      props.Config
	check    string
	steps    []props.Step
	unproven string
}

// loadCases records every scenario and makes one vector per load in it.
func loadCases() ([]Case, error) {
	scs, err := loadScenarios()
	if err != nil {
		return nil, err
	}
	enc := &frameEncoder{sigs: map[string]string{}}
	var cs []Case
	for _, sc := range scs {
		recs, err := runLoadScenario(sc.cfg, sc.check, sc.steps, sc.unproven)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sc.id, err)
		}
		for i, r := range recs {
			in, err := enc.input(r)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", sc.id, err)
			}
			id, desc := sc.id, sc.desc
			if len(recs) > 1 {
				id = fmt.Sprintf("%s-load%d", sc.id, i+1)
				desc = fmt.Sprintf("%s (load %d of %d)", desc, i+1, len(recs))
			}
			if r.falseComplete {
				desc += "; this complete verdict is false: the relay held a coordinate the load did not collect, which a relay breaking a requirement can hide"
			}
			sec := sc.sec
			if sec == "" {
				sec = secLoad
			}
			cs = append(cs, Case{ID: id, Section: sec, Description: desc, Input: in})
		}
	}
	hand, err := handLoadCases(enc)
	if err != nil {
		return nil, err
	}
	return append(cs, hand...), nil
}

func stepsString(steps []props.Step) string {
	var b []string
	for _, s := range steps {
		b = append(b, s.String())
	}
	return strings.Join(b, ", ")
}

// loadScenarios lists, in file order: every load mutant's stored witness,
// then seeded soundness and quiescent scenarios over every relay profile,
// then the quiescent ones of the conformant relay again with the relay
// unproven, then a relay known not to conform.
func loadScenarios() ([]loadScenario, error) {
	var out []loadScenario
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	for _, m := range mutants.Load() {
		b, err := os.ReadFile(filepath.Join(root, "mutants", "testdata", m.ID+".clear.json"))
		if err != nil {
			return nil, err
		}
		var w props.Witness
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, fmt.Errorf("%s witness: %w", m.ID, err)
		}
		out = append(out, loadScenario{id: "load/witness-" + m.ID, sec: m.Section, cfg: w.Config, check: w.Check, steps: w.Steps,
			desc: fmt.Sprintf("the scenario that exposes %s (%s) over %s, cap %d, n %d: %s; the load as the rules decide it", m.ID, m.Rule, w.Config.Profile, w.Config.Cap, w.Config.N, stepsString(w.Steps))})
	}
	var unproven []loadScenario
	for _, p := range relaysim.All(2) {
		seen := map[string]bool{}
		for c := range loadDraws {
			for _, check := range []string{props.CheckSoundness, props.CheckQuiescent} {
				sc := drawLoadScenario(p, check, c)
				recs, err := runLoadScenario(sc.cfg, sc.check, sc.steps, "")
				if err != nil {
					return nil, fmt.Errorf("%s: %w", sc.id, err)
				}
				fresh := false
				for _, r := range recs {
					k := fmt.Sprintf("%s/%s/%v", r.result.Verdict, r.result.Reason, r.falseComplete)
					fresh = fresh || !seen[k]
					seen[k] = true
				}
				if !fresh {
					continue
				}
				out = append(out, sc)
			}
			if p.Name == "conformant" && len(unproven) < 2 {
				// The conformant relay's completes again, the relay unproven.
				sc := drawLoadScenario(p, props.CheckQuiescent, c)
				if recs, err := runLoadScenario(sc.cfg, sc.check, sc.steps, ""); err == nil && recs[0].result.Verdict == model.Complete {
					sc.id = strings.Replace(sc.id, "conformant", "unproven", 1)
					sc.unproven = "no probe record for this relay"
					sc.desc = "the relay not proven to meet the relay requirements: " + sc.desc
					unproven = append(unproven, sc)
				}
			}
		}
	}
	return append(out, unproven...), nil
}

// drawLoadScenario draws case c of a check over profile p, as the props
// checks draw theirs: a history, then (soundness) a load with up to
// loadInterleaved steps interleaved, the installation's other
// subscriptions opened first.
func drawLoadScenario(p relaysim.Profile, check string, c int) loadScenario {
	seed := uint64(loadSeed)
	if check == props.CheckQuiescent {
		seed++
	}
	// Cases from 100 on draw from the generator's whole ranges.
	src := props.NewSeeded(seed, 100+c)
	cfg := props.DrawConfig(src, p.Name)
	steps := props.DrawSetup(src)
	what := "nothing written during the load"
	if check == props.CheckSoundness {
		steps = append(steps, props.Step{Op: props.OpStart})
		for k := range cfg.Others {
			steps = append(steps, props.Step{Op: props.OpOpen, I: k})
		}
		for range src.IntRange(4, loadInterleaved, "steps") {
			steps = append(steps, props.DrawStep(src))
		}
		what = "writes during the load"
	}
	return loadScenario{id: fmt.Sprintf("load/%s-%s-%d", p.Name, check, c), cfg: cfg, check: check, steps: steps,
		desc: fmt.Sprintf("relay %s (%s), cap %d, n %d, %s: %s", p.Name, p.Note, cfg.Cap, cfg.N, what, stepsString(steps))}
}
