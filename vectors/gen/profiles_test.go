package gen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// readmeSection is the README's text from heading to the next heading of
// the same or a higher level.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("README has no %q", heading)
	}
	s = s[i+len(heading)+2:]
	level := heading[:strings.Index(heading, " ")+1]
	for _, h := range []string{"\n" + level, "\n" + level[1:]} {
		if j := strings.Index(s, h); j >= 0 {
			s = s[:j]
		}
	}
	return s
}

// TestProfilesAgree: profiles.json as committed is what the runner reads
// and what the README and VOCABULARY.md describe: every profile, every
// capability and every unordered array named in each, the README's
// profile list exactly the defined one, and nothing in a profile that
// names an unknown kind or capability.
func TestProfilesAgree(t *testing.T) {
	dir := vectorsDir(t)
	raw, err := os.ReadFile(filepath.Join(dir, ProfilesFileName))
	if err != nil {
		t.Fatal(err)
	}
	var doc ProfilesDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	want, err := ProfilesJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, want) {
		t.Fatalf("%s drifts from the generator: run go run ./cmd/vectors -out vectors", ProfilesFileName)
	}
	vocab, err := os.ReadFile(filepath.Join(dir, VocabularyFile))
	if err != nil {
		t.Fatal(err)
	}
	runner, err := os.ReadFile(filepath.Join(dir, "examples", "vectors.test.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	readme := readmeSection(t, "### Client profiles")
	caps := capabilityNames()
	var listed []string
	for _, m := range regexp.MustCompile("(?m)^- `([a-z-]+)`").FindAllStringSubmatch(readme, -1) {
		listed = append(listed, m[1])
	}
	var names []string
	for _, p := range doc.Profiles {
		names = append(names, p.Name)
		if !strings.Contains(string(vocab), "| `"+p.Name+"` |") {
			t.Errorf("%s has no row for profile %s", VocabularyFile, p.Name)
		}
		for _, k := range p.Kinds {
			if _, ok := KindByName(k); !ok {
				t.Errorf("%s runs unknown kind %q", p.Name, k)
			}
		}
		for _, c := range p.Lacks {
			if !slices.Contains(caps, c) {
				t.Errorf("%s lacks unknown capability %q", p.Name, c)
			}
		}
		for k := range p.Ignore {
			if !slices.Contains(p.Kinds, k) {
				t.Errorf("%s ignores members of %s, a kind it does not run", p.Name, k)
			}
		}
	}
	sort.Strings(listed)
	sort.Strings(names)
	if !slices.Equal(listed, names) {
		t.Errorf("README lists profiles %v, %s defines %v", listed, ProfilesFileName, names)
	}
	if !slices.Contains(names, doc.Default) {
		t.Errorf("default profile %q is not defined", doc.Default)
	}
	for _, c := range caps {
		for where, text := range map[string]string{"README": readme, VocabularyFile: string(vocab)} {
			if !strings.Contains(text, "`"+c+"`") {
				t.Errorf("%s does not name capability %s", where, c)
			}
		}
	}
	for _, paths := range doc.Unordered {
		for _, p := range paths {
			if !strings.Contains(readme, "`"+p+"`") || !strings.Contains(string(vocab), "`"+p+"`") {
				t.Errorf("unordered array %s is not named in README and %s", p, VocabularyFile)
			}
		}
	}
	for _, s := range []string{"--profile", "NIPRS_PROFILE", ProfilesFileName} {
		if !strings.Contains(readme, s) || !bytes.Contains(runner, []byte(s)) {
			t.Errorf("%s is not in both the README and the runner", s)
		}
	}
}

// TestProfilePathsBite: every member a profile ignores and every array
// compared as a multiset occurs in some committed vector of its kind, so
// neither is a rule about nothing; and the full profile runs and compares
// everything.
func TestProfilePathsBite(t *testing.T) {
	occurs := func(kind, path string, array bool) bool {
		for _, file := range committed(t) {
			if file.Kind != kind {
				continue
			}
			for _, v := range file.Vectors {
				var x any
				if err := json.Unmarshal(v.Expected, &x); err != nil {
					t.Fatal(err)
				}
				if present(x, strings.Split(path, "."), array) {
					return true
				}
			}
		}
		return false
	}
	for _, p := range Profiles() {
		for k, paths := range p.Ignore {
			for _, path := range paths {
				if !occurs(k, path, false) {
					t.Errorf("%s ignores %s.%s, which no vector has", p.Name, k, path)
				}
			}
		}
		if p.Name == ProfileFull && (len(p.Lacks) > 0 || len(p.Ignore) > 0 || !slices.Equal(p.Kinds, kindNames())) {
			t.Errorf("the full profile does not compare everything: %+v", p)
		}
	}
	for k, paths := range unordered() {
		for _, path := range paths {
			if !occurs(k, path, true) {
				t.Errorf("unordered %s.%s: no vector has it as a non-empty array", k, path)
			}
		}
	}
}

// present says whether x has a member at path (a non-empty array, where
// array is set).
func present(x any, path []string, array bool) bool {
	if len(path) == 0 {
		if a, ok := x.([]any); array {
			return ok && len(a) > 0
		}
		return true
	}
	switch v := x.(type) {
	case []any:
		if path[0] != "[]" {
			return false
		}
		for _, e := range v {
			if present(e, path[1:], array) {
				return true
			}
		}
	case map[string]any:
		if e, ok := v[path[0]]; ok {
			return present(e, path[1:], array)
		}
	}
	return false
}
