// Command vectors writes the language-neutral conformance vectors: one JSON
// file per kind and a JSON Schema per file. With -check it instead replays
// the committed vectors against the production rules, or against a mutant
// of the catalogue with -rules, and lists every vector that fails.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nip-rs/harness/internal/vectorgen"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

func main() {
	out := flag.String("out", "vectors", "directory to write the vectors to (or read them from, with -check)")
	check := flag.Bool("check", false, "replay the vectors in -out instead of writing them")
	rules := flag.String("rules", "spec", "with -check: spec, "+model.ByValueIntegersName+" or a mutant id of the catalogue")
	flag.Parse()
	if !*check {
		if err := vectorgen.Write(*out); err != nil {
			fmt.Fprintln(os.Stderr, "vectors:", err)
			os.Exit(1)
		}
		return
	}
	r, err := ruleSet(*rules)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vectors:", err)
		os.Exit(2)
	}
	failed := 0
	for _, k := range vectorgen.Kinds() {
		f, err := vectorgen.Read(filepath.Join(*out, k.Name+".json"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "vectors:", err)
			os.Exit(2)
		}
		fails, err := vectorgen.Check(r, f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "vectors:", err)
			os.Exit(2)
		}
		fmt.Printf("%-8s %4d vectors, %d fail\n", k.Name, len(f.Vectors), len(fails))
		for _, fl := range fails {
			fmt.Println("  " + fl.String())
		}
		failed += len(fails)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

func ruleSet(name string) (*model.Rules, error) {
	switch name {
	case "spec":
		return model.Spec(), nil
	case model.ByValueIntegersName:
		return model.ByValueIntegers(), nil
	}
	m, ok := mutants.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown rule set %q", name)
	}
	return m.RulesUnder(model.ClearWins), nil
}
