package runreport

import (
	"encoding/json"
	"io"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/witnessfile"
)

// InvariantDoc is one invariant's counts in a search's document.
type InvariantDoc struct {
	Name       string `json:"name"`
	Label      string `json:"label"`
	Unit       string `json:"unit"`
	Checked    int64  `json:"checked"`
	Violations int64  `json:"violations"`
}

// ExploreDoc is one tie policy's search in the document.
type ExploreDoc struct {
	Universe     string               `json:"universe"`
	Depth        int                  `json:"depth"`
	Tie          string               `json:"tie"`
	Rules        string               `json:"rules"`
	Status       string               `json:"status"`
	BoundHit     string               `json:"bound_hit,omitempty"`
	Distinct     int                  `json:"distinct"`
	PerDepth     []int                `json:"per_depth"`
	Checked      int                  `json:"checked_at_bound"`
	Transitions  int64                `json:"transitions"`
	Registers    int64                `json:"registers_checked"`
	DeviceStates int                  `json:"device_states"`
	Invariants   []InvariantDoc       `json:"invariants"`
	Witness      *witnessfile.Witness `json:"witness,omitempty"`
	// Witnesses is one per violated invariant, with -all.
	Witnesses []*witnessfile.Witness `json:"witnesses,omitempty"`
	ElapsedMS float64                `json:"elapsed_ms"`
	// Network universes only.
	Symmetry   *bool            `json:"symmetry,omitempty"`
	Actions    map[string]int64 `json:"actions,omitempty"`
	Sometimes  map[string]int64 `json:"sometimes,omitempty"`
	Deliveries map[string]int64 `json:"deliveries,omitempty"`
	Oracle     map[string]int64 `json:"oracle,omitempty"`
	Unreached  []string         `json:"unreached,omitempty"`
}

// countMap is a coverage tally as a JSON object (encoding/json sorts its
// keys, so the document is deterministic).
func countMap(cs []exhaustive.CoverageCount) map[string]int64 {
	if cs == nil {
		return nil
	}
	m := map[string]int64{}
	for _, c := range cs {
		m[c.Name] = c.Count
	}
	return m
}

// CheckDoc is one directed check in the document.
type CheckDoc struct {
	Key            string                 `json:"key"`
	Label          string                 `json:"label"`
	Name           string                 `json:"name"`
	TieIndependent bool                   `json:"tie_independent,omitempty"`
	Points         map[string]int         `json:"points"`
	Violations     map[string]int         `json:"violations"`
	Total          int                    `json:"total"`
	Tallies        map[string]int         `json:"tallies,omitempty"`
	Witnesses      []*witnessfile.Witness `json:"witnesses,omitempty"`
	ElapsedMS      float64                `json:"elapsed_ms"`
}

// Doc is the JSON document of a run (-json).
type Doc struct {
	Run          string       `json:"run"`
	Status       string       `json:"status"`
	Explore      []ExploreDoc `json:"explore"`
	Directed     []CheckDoc   `json:"directed,omitempty"`
	WitnessFiles []string     `json:"witness_files,omitempty"`
}

// Document is the run as its JSON document.
func (r *Run) Document() Doc {
	j := Doc{Run: r.Run, Status: r.Status, WitnessFiles: r.Files, Explore: []ExploreDoc{}}
	for _, x := range r.Explore {
		e := ExploreDoc{Universe: x.Universe, Depth: x.Depth, Tie: x.Tie.String(), Rules: x.Rules, Status: x.Status.String(), BoundHit: x.BoundHit,
			Distinct: x.Distinct, PerDepth: x.PerDepth, Checked: x.Checked, Transitions: x.Transitions, Registers: x.Registers,
			DeviceStates: x.DeviceStates, Witness: x.Witness, ElapsedMS: float64(x.Elapsed.Microseconds()) / 1000}
		if r.All {
			e.Witnesses = x.Witnesses
		}
		for _, c := range x.Invariants {
			e.Invariants = append(e.Invariants, InvariantDoc{Name: c.Name, Label: c.Label, Unit: c.Unit, Checked: c.Checked, Violations: c.Violations})
		}
		if x.Actions != nil {
			sym := x.Symmetry
			e.Symmetry, e.Actions, e.Sometimes, e.Deliveries, e.Oracle = &sym, countMap(x.Actions), countMap(x.Sometimes), countMap(x.Deliveries), countMap(x.Oracle)
			e.Unreached = x.Unreached()
		}
		j.Explore = append(j.Explore, e)
	}
	for _, s := range r.Directed {
		c := CheckDoc{Key: s.Key, Label: s.Label, Name: s.Name, TieIndependent: s.TieIndependent, Points: map[string]int{}, Violations: map[string]int{},
			Total: s.Total, Tallies: s.Tallies, Witnesses: s.Witnesses, ElapsedMS: float64(s.Elapsed.Microseconds()) / 1000}
		for t, n := range s.Points {
			c.Points[t.String()] = n
		}
		for t, n := range s.Violations {
			c.Violations[t.String()] = n
		}
		j.Directed = append(j.Directed, c)
	}
	return j
}

// WriteJSON writes the run as one line of JSON.
func (r *Run) WriteJSON(w io.Writer) error {
	b, err := json.Marshal(r.Document())
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
