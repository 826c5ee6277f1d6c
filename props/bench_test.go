package props

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// BenchmarkGateSoundness is the control's load:soundness search of the
// mutant gate: the production rules, which nothing catches, over every
// profile the gate searches at its default cases and seed (go test
// ./props/ -run '^$' -bench GateSoundness -benchtime 3x).
func BenchmarkGateSoundness(b *testing.B) {
	for _, profiles := range [][]string{{"conformant"}, GateProfiles(CheckSoundness)} {
		b.Run(strings.Join(profiles, "+"), func(b *testing.B) {
			cfg := SearchConfig{Check: CheckSoundness, Rules: model.Proposed(), Cases: 1000, Seed: 20240601}
			for b.Loop() {
				if w, err := SearchProfiles(cfg, profiles); err != nil || w != nil {
					b.Fatal(w, err)
				}
			}
		})
	}
}

// BenchmarkGateTermination is the control's load:termination search, to
// compare with BenchmarkGateSoundness: the same scenarios, then a bounded
// fair schedule (go test ./props/ -run '^$' -bench 'Gate(Soundness|Termination)' -benchtime 3x).
func BenchmarkGateTermination(b *testing.B) {
	cfg := SearchConfig{Check: CheckTermination, Rules: model.Proposed(), Cases: 1000, Seed: 20240601}
	for b.Loop() {
		if w, err := SearchProfiles(cfg, GateProfiles(CheckTermination)); err != nil || w != nil {
			b.Fatal(w, err)
		}
	}
}
