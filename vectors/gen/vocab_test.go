package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestVocabularyCoversVectors: every coded value in the committed vectors
// (expected outputs and the readings' answers) is one the vocabulary
// lists, and every member the vocabulary describes occurs in some vector,
// so a path that no longer matches anything cannot pass unnoticed.
func TestVocabularyCoversVectors(t *testing.T) {
	fields, err := Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	hits := map[string]int{}
	for _, f := range committed(t) {
		bad, err := CheckVocabulary(fields, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bad {
			t.Errorf("vocabulary lacks %s", b)
		}
		for _, fl := range fields {
			if !fl.has(f.Kind) {
				continue
			}
			for _, v := range f.Vectors {
				vals, err := FieldValues(fl, v)
				if err != nil {
					t.Fatal(err)
				}
				hits[f.Kind+" "+fl.Member] += len(vals)
			}
		}
	}
	for _, fl := range fields {
		for _, k := range fl.Kinds {
			if hits[k+" "+fl.Member] == 0 {
				t.Errorf("%s %s: no vector carries it", k, fl.Member)
			}
		}
	}
}

// TestCheckVocabularyCatchesAnUnknownCode: a code the vocabulary lacks,
// put into a vector, is reported, at any depth of the output.
func TestCheckVocabularyCatchesAnUnknownCode(t *testing.T) {
	fields, err := Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct{ old, new string }{
		"codec":   {`"outcome":"discard","reason":"not_json"`, `"outcome":"discard","reason":"not_jsn"`},
		"history": {`"pass":"newest"`, `"pass":"newer"`},
		"load":    {`"reason":"plateau"`, `"reason":"plateaux"`},
	}
	for _, f := range committed(t) {
		c, ok := cases[f.Kind]
		if !ok {
			continue
		}
		i := slices.IndexFunc(f.Vectors, func(v Vector) bool { return bytes.Contains(v.Expected, []byte(c.old)) })
		if i < 0 {
			t.Fatalf("%s: no vector holds %s", f.Kind, c.old)
		}
		alt := f
		alt.Vectors = []Vector{f.Vectors[i]}
		alt.Vectors[0].Expected = bytes.Replace(f.Vectors[i].Expected, []byte(c.old), []byte(c.new), 1)
		bad, err := CheckVocabulary(fields, alt)
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) != 1 || !strings.HasPrefix(bad[0], f.Vectors[i].ID+":") {
			t.Errorf("%s: an unknown code reported as %v", f.Kind, bad)
		}
	}
}

// TestVocabularyJoinRefusesGaps: a code without a meaning, and a meaning
// without a code, both stop generation.
func TestVocabularyJoinRefusesGaps(t *testing.T) {
	m := map[string]meaning{"a": {"x", "s"}}
	if _, err := join("f", []string{"a", "b"}, m); err == nil {
		t.Error("a code without a meaning was accepted")
	}
	if _, err := join("f", nil, m); err == nil {
		t.Error("a meaning without a code was accepted")
	}
	if _, err := join("f", []string{"a", "a"}, m); err == nil {
		t.Error("a code enumerated twice was accepted")
	}
	if cs, err := join("f", []string{"a"}, m); err != nil || len(cs) != 1 || cs[0].Meaning != "x" {
		t.Errorf("join = %v, %v", cs, err)
	}
}

// TestVocabularyNamesEveryLoadCode: the document lists each verdict and
// reason of the load, each event error and each drop code, and states the
// CLOSE discipline; the load file's how_to_run and the README point to it.
func TestVocabularyNamesEveryLoadCode(t *testing.T) {
	doc, err := VocabularyMarkdown()
	if err != nil {
		t.Fatal(err)
	}
	fields, err := Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		for _, c := range f.Codes {
			if !bytes.Contains(doc, []byte("| `"+c.Code+"` |")) {
				t.Errorf("%s: %s missing from the document", f.Member, c.Code)
			}
		}
	}
	if !bytes.Contains(doc, []byte("CLOSE discipline")) {
		t.Error("the document does not state the CLOSE discipline")
	}
	for _, k := range Kinds() {
		if !strings.Contains(k.HowToRun, VocabularyFile) {
			t.Errorf("%s: how_to_run does not point to %s", k.Name, VocabularyFile)
		}
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, []byte("vectors/"+VocabularyFile)) {
		t.Errorf("README.md does not point to vectors/%s", VocabularyFile)
	}
}
