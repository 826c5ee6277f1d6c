package witnessfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Every witness file the repository holds parses and writes back byte for
// byte: the format is stable, and field order is the file's order.
func TestGoldenWitnessesRoundTrip(t *testing.T) {
	var files []string
	for _, pat := range []string{"../exhaustive/testdata/*.json", "../mutants/testdata/M*.json"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d witness files found", len(files))
	}
	kinds := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		kinds[w.Kind]++
		if got := w.JSON(); !bytes.Equal(got, data) {
			t.Errorf("%s does not round-trip:\n%s", f, got)
		}
	}
	if kinds[KindExplore] == 0 || kinds[KindDirected] == 0 {
		t.Fatalf("want both kinds among the files, got %v", kinds)
	}
}

func TestBadWitnessesAreInputErrors(t *testing.T) {
	for name, in := range map[string]string{
		"not json":        "{",
		"unknown field":   `{"kind":"explore","invariant":"x","config":{}}`,
		"trailing data":   `{"kind":"explore","invariant":"x"} {}`,
		"no invariant":    `{"kind":"explore"}`,
		"point not obj":   `{"kind":"directed","invariant":"x","point":[1]}`,
		"point bad value": `{"kind":"directed","invariant":"x","point":{"a":true}}`,
		"point float":     `{"kind":"directed","invariant":"x","point":{"a":1.5}}`,
	} {
		if _, err := Parse([]byte(in)); !errors.Is(err, ErrBad) {
			t.Errorf("%s: err %v, want ErrBad", name, err)
		}
	}
}

func TestParamsKeepOrder(t *testing.T) {
	w, err := Parse([]byte(`{"kind":"directed","invariant":"x","point":{"z":"b","a":-3}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Point.String(); got != `z="b" a=-3` {
		t.Fatalf("point %s", got)
	}
}
