package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// allRun runs a mutant that breaks several network invariants with -all and
// returns the witness directory's files (name -> content) and the
// invariants the JSON result counts as violated.
func allRun(t *testing.T, workers string, extra ...string) (map[string]string, []string) {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"-rules", "M6", "-universe", "network", "-depth", "4", "-tie", "clear", "-directed=false",
		"-workers", workers, "-witness", dir, "-progress=0", "-json"}, extra...)
	code, out, errOut := runCLI(t, args...)
	if code != exitViolation {
		t.Fatalf("workers %s: exit %d:\n%s%s", workers, code, out, errOut)
	}
	var res struct {
		Explore []struct {
			Invariants []struct {
				Name       string `json:"name"`
				Violations int64  `json:"violations"`
			} `json:"invariants"`
			Witnesses []struct {
				Invariant string `json:"invariant"`
			} `json:"witnesses"`
		} `json:"explore"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Explore) != 1 {
		t.Fatalf("json: %v\n%s", err, out)
	}
	var violated []string
	for _, c := range res.Explore[0].Invariants {
		if c.Violations > 0 {
			violated = append(violated, c.Name)
		}
	}
	files := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(data)
	}
	if slices.Contains(extra, "-all") && len(res.Explore[0].Witnesses) != len(violated) {
		t.Errorf("workers %s: %d witnesses in the JSON result for %d violated invariants", workers, len(res.Explore[0].Witnesses), len(violated))
	}
	return files, violated
}

func TestAllWritesOneWitnessPerViolatedInvariant(t *testing.T) {
	one, violated := allRun(t, "1", "-all")
	two, violated2 := allRun(t, "2", "-all")
	if len(violated) < 2 || !slices.Equal(violated, violated2) {
		t.Fatalf("violated invariants: %v at 1 worker, %v at 2", violated, violated2)
	}
	if len(one) != len(two) {
		t.Fatalf("1 worker wrote %d files, 2 workers %d", len(one), len(two))
	}
	for name, data := range one {
		if two[name] != data {
			t.Errorf("%s differs between 1 and 2 workers", name)
		}
	}
	// One JSON and one text file per violated invariant, named by it.
	if len(one) != 2*len(violated) {
		t.Errorf("%d files for %d violated invariants: %v", len(one), len(violated), mapKeys(one))
	}
	for _, inv := range violated {
		base := "explore-network-depth4-clear-" + inv
		text, ok := one[base+".txt"]
		if !ok || !strings.Contains(text, "violation "+inv+":") {
			t.Errorf("%s.txt missing or does not show the violation of %s", base, inv)
		}
		path := filepath.Join(t.TempDir(), base+".json")
		if err := os.WriteFile(path, []byte(one[base+".json"]), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, "-replay", path)
		if code != exitViolation || !strings.Contains(out, "reproduced: "+inv+" fails again") {
			t.Errorf("replay of %s: exit %d:\n%s%s", base, code, out, errOut)
		}
	}
	// Without -all the run keeps only the smallest witness overall, and it
	// is one of the -all set.
	single, _ := allRun(t, "1")
	if len(single) != 1 {
		t.Fatalf("without -all: files %v", mapKeys(single))
	}
	found := false
	for _, data := range single {
		for name, d := range one {
			found = found || (strings.HasSuffix(name, ".json") && d == data)
		}
	}
	if !found {
		t.Error("the smallest witness is not among the -all witnesses")
	}
}

func mapKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// -all asks the exhaustive search for every invariant's witness; with a
// replay or a simulation it is a usage error, not silently dropped.
func TestAllWithReplayOrSimulateIsAUsageError(t *testing.T) {
	for _, args := range [][]string{
		{"-all", "-replay", "../../mutants/testdata/M3.clear.json"},
		{"-all", "-simulate", "3", "-progress=0"},
	} {
		if code, out, errOut := runCLI(t, args...); code != exitUsage || !strings.Contains(errOut, "-all has no meaning") {
			t.Errorf("%v: exit %d, stderr %q:\n%s", args, code, errOut, out)
		}
	}
}
