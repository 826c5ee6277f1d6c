// Command vectors writes the language-neutral conformance vectors: one JSON
// file per kind and a JSON Schema per file. With -check it instead replays
// the committed vectors against the production rules, or against a mutant
// of the catalogue with -rules, and lists every vector that fails. With
// -coverage it prints which requirement rows of spec/requirements.tsv the
// vectors cite.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/spec"
	"github.com/nip-rs/harness/vectors/gen"
)

func main() {
	out := flag.String("out", "vectors", "directory to write the vectors to (or read them from, with -check)")
	check := flag.Bool("check", false, "replay the vectors in -out instead of writing them")
	rules := flag.String("rules", model.ProposedName, "with -check: proposed (what the vectors are generated under), spec (the text as written), a reading ("+readingNames()+") or a mutant id of the catalogue")
	coverage := flag.Bool("coverage", false, "print which requirement rows (spec/requirements.tsv) the vectors in -out cite, by kind")
	explored := flag.Bool("explored", false, "explore the reference, network-whole and hierarchy universes under every core mutant and write the smallest paths the traces are made from (vectors/gen/testdata/explored.json)")
	flag.Parse()
	if *explored {
		if err := gen.WriteExplored(0); err != nil {
			fmt.Fprintln(os.Stderr, "vectors:", err)
			os.Exit(1)
		}
		return
	}
	if *coverage {
		os.Exit(printCoverage(*out))
	}
	if !*check {
		if err := gen.Write(*out); err != nil {
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
	for _, k := range gen.Kinds() {
		f, err := gen.Read(filepath.Join(*out, k.Name+".json"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "vectors:", err)
			os.Exit(2)
		}
		fails, err := gen.CheckWith(r, f)
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

// ruleSet resolves -rules: a mutant of the catalogue changes the core's
// rules (M, L) or the history walk's (H); the other stays production.
func ruleSet(name string) (gen.RuleSet, error) {
	switch name {
	case model.ProposedName:
		return gen.SpecRules(), nil
	case "spec":
		return gen.RuleSet{Model: model.Spec(), History: history.Spec()}, nil
	}
	for _, r := range mutants.Readings() {
		if r.Name == name {
			return gen.RuleSet{Model: r.Rules(), History: history.Spec()}, nil
		}
	}
	m, ok := mutants.Lookup(name)
	if !ok {
		return gen.RuleSet{}, fmt.Errorf("unknown rule set %q", name)
	}
	return gen.RuleSet{Model: m.RulesUnder(model.ClearWins), History: m.HistoryRules()}, nil
}

// readingNames lists the readings -rules accepts, comma-separated.
func readingNames() string {
	var names []string
	for _, r := range mutants.Readings() {
		names = append(names, r.Name)
	}
	return strings.Join(names, ", ")
}

// printCoverage prints the requirement rows the committed vectors cite.
func printCoverage(dir string) int {
	reqs, err := spec.Requirements()
	if err != nil {
		fmt.Fprintln(os.Stderr, "vectors:", err)
		return 2
	}
	var files []gen.File
	for _, k := range gen.Kinds() {
		f, err := gen.Read(filepath.Join(dir, k.Name+".json"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "vectors:", err)
			return 2
		}
		files = append(files, f)
	}
	gen.Coverage(files, reqs).Print(os.Stdout)
	return 0
}
