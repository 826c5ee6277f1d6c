package gen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// repoRoot finds the module root from the working directory upward, so the
// generator reads the core's own test inputs from a command or a test.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(b), "module github.com/nip-rs/harness\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("vectors/gen: not inside the harness module")
		}
		dir = parent
	}
}

// fuzzCorpus reads the seed corpus of a model fuzz target with one []byte
// argument, by file name.
func fuzzCorpus(target string) ([]string, map[string]string, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, nil, err
	}
	dir := filepath.Join(root, "model", "testdata", "fuzz", target)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]string{}
	var names []string
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, nil, err
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 2 || lines[0] != "go test fuzz v1" {
			return nil, nil, fmt.Errorf("%s: not a one-argument corpus file", e.Name())
		}
		arg, ok := strings.CutPrefix(lines[1], "[]byte(")
		if !ok || !strings.HasSuffix(arg, ")") {
			return nil, nil, fmt.Errorf("%s: not a []byte argument", e.Name())
		}
		s, err := strconv.Unquote(strings.TrimSuffix(arg, ")"))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		names = append(names, e.Name())
		out[e.Name()] = s
	}
	slices.Sort(names)
	return names, out, nil
}

// codecFiles reads the core's codec example plaintexts (model/testdata/codec),
// by name without extension.
func codecFiles() ([]string, map[string]string, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, nil, err
	}
	paths, err := filepath.Glob(filepath.Join(root, "model", "testdata", "codec", "*.json"))
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(paths)
	out := map[string]string{}
	var names []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		n := strings.TrimSuffix(filepath.Base(p), ".json")
		names = append(names, n)
		out[n] = string(b)
	}
	return names, out, nil
}

// codecCases are the hand-written cases, then the core's example
// plaintexts, then the core's fuzz seed corpus for the blob parser.
func codecCases() ([]Case, error) {
	var cs []Case
	for _, c := range handCodecCases() {
		cs = append(cs, Case{ID: "codec/" + c.id, Section: c.sec, Description: c.desc, Input: plaintextInput(c.pt)})
	}
	names, files, err := codecFiles()
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		sec := "Example; Test Vectors"
		if strings.HasPrefix(n, "invalid-") {
			sec += "; Invalid Cases"
		}
		cs = append(cs, Case{ID: "codec/example-" + n, Section: sec, Description: "the plaintext " + n + " from the core's codec examples", Input: plaintextInput(files[n])})
	}
	names, corpus, err := fuzzCorpus("FuzzParseBlob")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		cs = append(cs, Case{ID: "codec/corpus-" + n, Section: secContent, Description: "seed " + n + " of the core's blob-parser fuzz corpus", Input: plaintextInput(corpus[n])})
	}
	return cs, nil
}
