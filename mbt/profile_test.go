package mbt

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/itf"
	"github.com/nip-rs/harness/model"
)

// The profiles a trace is masked by are the vectors' client profiles,
// and the one mask (no override layer) goes with the one profile that
// lacks override_layer.
func TestProfilesMatchVectors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(clientDir(t), "..", "..", "profiles.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pf struct {
		Profiles []struct {
			Name  string   `json:"name"`
			Lacks []string `json:"lacks"`
		} `json:"profiles"`
	}
	if err := json.Unmarshal(b, &pf); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pf.Profiles {
		names = append(names, p.Name)
		got, err := ParseProfile(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if want := slices.Contains(p.Lacks, "override_layer"); got.Legacy != want {
			t.Errorf("profile %s: masked as legacy %v, lacks override_layer %v", p.Name, got.Legacy, want)
		}
	}
	if !slices.Equal(names, ProfileNames()) {
		t.Errorf("profiles.json names %v, the traces know %v", names, ProfileNames())
	}
	if p, err := ParseProfile("json-parse,legacy-decoder"); err != nil || !p.Legacy {
		t.Errorf("a combination with legacy-decoder: %+v %v", p, err)
	}
	if _, err := ParseProfile("full,nonesuch"); err == nil || !strings.Contains(err.Error(), "nonesuch") {
		t.Errorf("an unknown profile: %v", err)
	}
}

// legacyTraces are simulated walks of network-whole masked by the
// legacy-decoder profile.
func legacyTraces(t *testing.T, walks, steps int, seed uint64) []*itf.Trace {
	t.Helper()
	cat := exhaustive.NewCatalog()
	u, err := cat.Universe("network-whole")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := cat.Rules(model.ProposedName)
	if err != nil {
		t.Fatal(err)
	}
	trs, err := Traces(exhaustive.SimConfig{Universe: u, Rules: rules, Walks: walks, Steps: steps, Seed: seed},
		Run{Universe: u.Name, Rules: rules.Name, Tie: rules.Tie.String(), Seed: seed, Steps: steps, Profile: "legacy-decoder"})
	if err != nil {
		t.Fatal(err)
	}
	return trs
}

// A trace masked by legacy-decoder shows no liveness and no override key,
// names its profile, and still replays against the model (masked the
// same way); the same walks unmasked do show overrides, so the mask
// removed something; an altered frontier diverges. A universe without a
// legacy device has no trace for the profile.
func TestLegacyProfileTraces(t *testing.T) {
	cat := exhaustive.NewCatalog()
	masked := legacyTraces(t, 5, 30, 3)
	var all, full []byte
	for _, tr := range masked {
		b, err := itf.Encode(tr)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
		back, err := itf.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(cat, back); err != nil {
			t.Fatal(err)
		}
	}
	for _, tr := range simTraces(t, 5, 30, 3) {
		b, err := itf.Encode(tr)
		if err != nil {
			t.Fatal(err)
		}
		full = append(full, b...)
	}
	for _, s := range []string{`"live"`, `"ov_`} {
		if bytes.Contains(all, []byte(s)) {
			t.Errorf("a legacy-decoder trace shows %s", s)
		}
		if !bytes.Contains(full, []byte(s)) {
			t.Errorf("the unmasked walks show no %s: the mask is not tested", s)
		}
	}
	if !bytes.Contains(all, []byte(`"profile":"legacy-decoder"`)) {
		t.Error("the masked traces do not name their profile")
	}
	u := PairUniverse()
	_, err := Traces(exhaustive.SimConfig{Universe: u, Rules: model.Proposed(), Walks: 1, Steps: 5, Seed: 1},
		Run{Universe: u.Name, Rules: model.ProposedName, Tie: "clear", Seed: 1, Steps: 5, Profile: "legacy-decoder"})
	if err == nil || !strings.Contains(err.Error(), "hosts no device") {
		t.Errorf("legacy-decoder traces of a universe without a legacy device: %v", err)
	}
	tr := masked[0]
	k := len(tr.States) - 1
	tr.States[k].Values["d2"] = itf.Map{{K: itf.Str("c0"), V: itf.Record{"effective": itf.NewInt(99)}}}
	if d, ok := IsDivergence(Check(cat, tr)); !ok || d.Step != k || d.Var != "d2" {
		t.Fatalf("an altered legacy frontier: want a divergence at step %d in d2, got %v", k, d)
	}
}

// legacyAdapter is the worked client's adapter, which Drive runs as a
// legacy decoder for a legacy-decoder trace.
func legacyAdapter(t *testing.T, dir string) []string {
	return []string{nodePath(t), filepath.Join(dir, "adapter.mjs")}
}

// The worked client as a legacy decoder follows the masked traces: it
// hosts the legacy device and is not failed for showing no override.
// Driven through the unmasked traces instead (hosting the upgraded
// devices) it diverges, and so does a legacy decoder that takes the
// last value received instead of the larger.
func TestJSLegacyClientFollowsMaskedTraces(t *testing.T) {
	argv := legacyAdapter(t, clientDir(t))
	walks := shortrun.Size(t, 20, 5)
	r, err := DriveAll(argv, legacyTraces(t, walks, 30, 11))
	if err != nil {
		t.Fatal(err)
	}
	if r.Divergence != nil || r.Walks != walks {
		t.Fatalf("%d walks, divergence %v", r.Walks, r.Divergence)
	}
	t.Logf("%d masked walks, %d states, all agree", walks, r.States)

	// Forced to stay a legacy decoder on unmasked traces (env sets the
	// variable after Drive does).
	r, err = DriveAll(append([]string{"env", "NIPRS_PROFILE=legacy-decoder"}, argv...), simTraces(t, walks, 30, 11))
	if err != nil {
		t.Fatal(err)
	}
	if r.Divergence == nil {
		t.Fatal("a legacy decoder followed the unmasked traces of upgraded devices")
	}

	dir := t.TempDir()
	ents, err := os.ReadDir(clientDir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".mjs") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(clientDir(t), e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "adapter.mjs" {
			const maxMerge = `this.frontiers.set(ctx, Math.max(this.frontiers.get(ctx) ?? 0, value));`
			if !bytes.Contains(b, []byte(maxMerge)) {
				t.Fatal("adapter.mjs no longer has the legacy merge this test seeds a bug in")
			}
			b = bytes.Replace(b, []byte(maxMerge), []byte(`this.frontiers.set(ctx, value);`), 1)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err = DriveAll(legacyAdapter(t, dir), legacyTraces(t, walks, 30, 11))
	if err != nil {
		t.Fatal(err)
	}
	if r.Divergence == nil {
		t.Fatalf("a last-value legacy merge went unnoticed through %d masked walks", r.Walks)
	}
	t.Logf("last-value merge found: %v", r.Divergence)
}
