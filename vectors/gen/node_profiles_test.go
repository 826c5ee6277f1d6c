package gen

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
)

// stubRun runs the node runner under profile against the stub client of
// testdata, which answers each vector's expected output masked to the
// profile, with corrupt ("<id> <path>") replacing one member.
func stubRun(t *testing.T, node, profile, corrupt, kinds string) ([]byte, bool) {
	t.Helper()
	stub, err := filepath.Abs(filepath.Join("testdata", "stub-client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"NIPRS_CLIENT=" + stub, "STUB_VECTORS=" + vectorsDir(t), "STUB_PROFILE=" + profile,
		"NIPRS_PROFILE=" + profile, "STUB_CORRUPT=" + corrupt}
	if kinds != "" {
		env = append(env, "NIPRS_KINDS="+kinds)
	}
	return runNode(t, node, env...)
}

// fileCounts reads the runner's per-file "name.json: P passed, F failed,
// S skipped" lines.
func fileCounts(out []byte) map[string][3]int {
	got := map[string][3]int{}
	re := regexp.MustCompile(`(?m)^(?:# )?(\w+)\.json: (\d+) passed, (\d+) failed, (\d+) skipped$`)
	for _, m := range re.FindAllSubmatch(out, -1) {
		var c [3]int
		for i := range c {
			c[i], _ = strconv.Atoi(string(m[i+2]))
		}
		got[string(m[1])] = c
	}
	return got
}

// profileRuns is, per kind, how many committed vectors profile p runs.
func profileRuns(t *testing.T, p Profile) (runs, totals map[string]int) {
	runs, totals = map[string]int{}, map[string]int{}
	for _, f := range committed(t) {
		totals[f.Kind] = len(f.Vectors)
		if !slices.Contains(p.Kinds, f.Kind) {
			continue
		}
		for _, v := range f.Vectors {
			if !slices.ContainsFunc(v.Needs, func(c string) bool { return slices.Contains(p.Lacks, c) }) {
				runs[f.Kind]++
			}
		}
	}
	return runs, totals
}

func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the node runner's profiles are not exercised")
	}
	return node
}

// TestNodeProfilesPassStub: under each profile, a client answering exactly
// the profile's members (0 as -0, unordered arrays reversed) passes every
// vector the profile runs, and the runner's per-file counts are the
// profile's: the vectors of kinds it runs without a lacked capability
// pass, the rest are skipped. Two profiles combined run the kinds both
// run and skip what either lacks.
func TestNodeProfilesPassStub(t *testing.T) {
	node := needNode(t)
	legacy, jsonp := profileNamed(t, ProfileLegacyDecoder), profileNamed(t, ProfileJSONParse)
	both := Profile{Name: legacy.Name + "," + jsonp.Name, Kinds: legacy.Kinds, Lacks: append(slices.Clone(legacy.Lacks), jsonp.Lacks...)}
	profiles := append(Profiles(), both)
	if shortrun.On(t, "the two profiles combined only (a node run per profile)") {
		profiles = []Profile{both}
	}
	for _, p := range profiles {
		out, ok := stubRun(t, node, p.Name, "", "")
		runs, totals := profileRuns(t, p)
		got := fileCounts(out)
		for kind, total := range totals {
			want := [3]int{runs[kind], 0, total - runs[kind]}
			if got[kind] != want {
				t.Errorf("%s: %s: want %v passed/failed/skipped, runner says %v", p.Name, kind, want, got[kind])
			}
		}
		if !ok || tapCount(t, out, "fail") != 0 {
			t.Errorf("%s: the stub answering the profile's members fails:\n%s", p.Name, tail(out))
		}
	}
}

// firstVector is the first committed vector of kind whose expected output
// has member (a top-level name) and that profile p runs.
func firstVector(t *testing.T, kind, member string, p Profile) string {
	t.Helper()
	for _, f := range committed(t) {
		if f.Kind != kind {
			continue
		}
		for _, v := range f.Vectors {
			if slices.ContainsFunc(v.Needs, func(c string) bool { return slices.Contains(p.Lacks, c) }) {
				continue
			}
			if strings.Contains(string(v.Expected), `"`+member+`":`) {
				return v.ID
			}
		}
	}
	t.Fatalf("no %s vector has %s", kind, member)
	return ""
}

func profileNamed(t *testing.T, name string) Profile {
	t.Helper()
	for _, p := range Profiles() {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no profile %q", name)
	return Profile{}
}

// TestNodeProfilesCatchCorruption: one corrupted member of one answer
// fails exactly that vector where the profile compares the member, and
// passes where the profile ignores it.
func TestNodeProfilesCatchCorruption(t *testing.T) {
	node := needNode(t)
	legacy, canon, jsonp := profileNamed(t, ProfileLegacyDecoder), profileNamed(t, ProfileCanonicalStore), profileNamed(t, ProfileJSONParse)
	script := firstVector(t, "register", "after", canon)
	discard := firstVector(t, "codec", "reason", legacy)
	accept := firstVector(t, "codec", "entries", jsonp)
	cases := []struct {
		profile, corrupt string
		fails            bool
	}{
		{ProfileFull, script + " after.[].registers", true},
		{ProfileCanonicalStore, script + " after.[].registers", false},
		{ProfileCanonicalStore, script + " after.[].candidate", true},
		{ProfileLegacyDecoder, discard + " reason", false},
		{ProfileLegacyDecoder, discard + " outcome", true},
		{ProfileJSONParse, accept + " entries", true},
	}
	// A node run per case: the quick gate runs one member compared and
	// the same member ignored.
	cases = cases[:shortrun.Size(t, len(cases), 2)]
	for _, c := range cases {
		out, ok := stubRun(t, node, c.profile, c.corrupt, "codec,register")
		fails := tapCount(t, out, "fail")
		want := 0
		if c.fails {
			want = 1
		}
		if fails != want || ok == c.fails {
			t.Errorf("%s with %q corrupted: want %d failed (exit 0: %v), got %d failed (exit 0: %v):\n%s",
				c.profile, c.corrupt, want, !c.fails, fails, ok, tail(out))
		}
	}
}

// TestNodeNoVectorRanFails: a runner that ran nothing (no client, or a
// client with no function for a kind the profile runs) exits non-zero,
// saying so.
func TestNodeNoVectorRanFails(t *testing.T) {
	node := needNode(t)
	out, ok := runNode(t, node, "NIPRS_PROFILE="+ProfileLegacyDecoder)
	if ok || !strings.Contains(string(out), "no vector ran") {
		t.Fatalf("no client: want a non-zero exit saying no vector ran:\n%s", tail(out))
	}
	out, ok = runNode(t, node, "NIPRS_PROFILE=no-such-profile")
	if ok || !strings.Contains(string(out), fmt.Sprintf("unknown profile %s", "no-such-profile")) {
		t.Fatalf("an unknown profile: want a non-zero exit naming it:\n%s", tail(out))
	}
}
