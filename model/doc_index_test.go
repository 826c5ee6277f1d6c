package model_test

import (
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
)

// indexExempt names the exported methods the index of doc.go need not
// link, each with why. Package-level identifiers have no exemption: a
// client reaches every one of them, so the index names every one.
var indexExempt = map[string]string{
	"String": "every String method is the fmt.Stringer of its type; the type is indexed",
}

// TestDocIndexNamesEveryIdentifier keeps the "# Index" section of doc.go
// in step with the package: every exported constant, variable, function,
// type and method (bar indexExempt) must appear there as a doc link, and
// every link there must name something the package exports, so a new
// identifier cannot go unindexed and a removed one cannot linger.
func TestDocIndexNamesEveryIdentifier(t *testing.T) {
	pkg := parseModel(t)
	index, ok := section(pkg.Doc, "Index")
	if !ok {
		t.Fatal(`doc.go has no "# Index" section`)
	}
	names := exported(pkg)
	if len(names) < 200 {
		t.Fatalf("found only %d exported identifiers: the parse missed files", len(names))
	}
	missing, stale := checkIndex(index, names)
	for _, n := range missing {
		t.Errorf("doc.go index does not link [%s]", n)
	}
	for _, n := range stale {
		t.Errorf("doc.go index links [%s], which the package does not export", n)
	}
}

// TestCheckIndexCatches proves the check can fail both ways.
func TestCheckIndexCatches(t *testing.T) {
	names := []string{"Replica", "Replica.Advance", "Spec"}
	missing, stale := checkIndex("[Replica] and [Replica.Advance]; [Gone]; Spec", names)
	if !slices.Equal(missing, []string{"Spec"}) {
		t.Errorf("missing = %v, want [Spec] (a bare word is no link)", missing)
	}
	if !slices.Equal(stale, []string{"Gone"}) {
		t.Errorf("stale = %v, want [Gone]", stale)
	}
}

// checkIndex compares the doc links of index with names (qualified
// methods as Type.Method): what names has that index does not link, and
// what index links that names lacks, both sorted.
func checkIndex(index string, names []string) (missing, stale []string) {
	linked := map[string]bool{}
	var p comment.Parser
	var walk func(ts []comment.Text)
	walk = func(ts []comment.Text) {
		for _, t := range ts {
			switch x := t.(type) {
			case *comment.DocLink:
				if x.ImportPath == "" {
					name := x.Name
					if x.Recv != "" {
						name = x.Recv + "." + x.Name
					}
					linked[name] = true
				}
			case *comment.Link:
				walk(x.Text)
			}
		}
	}
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	lookup := func(recv, name string) bool {
		if recv != "" {
			return known[recv+"."+name]
		}
		return known[name]
	}
	p.LookupSym = lookup
	for _, b := range p.Parse(index).Content {
		switch x := b.(type) {
		case *comment.Paragraph:
			walk(x.Text)
		case *comment.List:
			for _, it := range x.Items {
				for _, c := range it.Content {
					if para, ok := c.(*comment.Paragraph); ok {
						walk(para.Text)
					}
				}
			}
		}
	}
	for _, n := range names {
		if !linked[n] {
			missing = append(missing, n)
		}
	}
	// A link the lookup refused stays plain text; find those by their
	// brackets so a stale name is reported, not silently unlinked.
	for _, f := range strings.FieldsFunc(index, func(r rune) bool { return r == '[' }) {
		name, _, ok := strings.Cut(f, "]")
		if ok && isIdent(name) && !known[name] {
			stale = append(stale, name)
		}
	}
	slices.Sort(missing)
	slices.Sort(stale)
	return slices.Compact(missing), slices.Compact(stale)
}

// isIdent reports whether s looks like a Go identifier or Type.Method.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r == '.' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
		if !letter && !(i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// parseModel reads the package's non-test files with their comments, in
// name order.
func parseModel(t *testing.T) *doc.Package {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name.Name != "model" {
			t.Fatalf("%s is package %s, not model", name, f.Name.Name)
		}
		files = append(files, f)
	}
	d, err := doc.NewFromFiles(fset, files, "github.com/nip-rs/harness/model")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// exported lists every exported identifier of d: constants, variables,
// functions and types by name, methods as Type.Method, sorted.
func exported(d *doc.Package) []string {
	var out []string
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			for _, n := range v.Names {
				if token.IsExported(n) {
					out = append(out, n)
				}
			}
		}
	}
	funcs := func(recv string, fs []*doc.Func) {
		for _, f := range fs {
			if !token.IsExported(f.Name) {
				continue
			}
			if recv == "" {
				out = append(out, f.Name)
			} else if _, ok := indexExempt[f.Name]; !ok {
				out = append(out, recv+"."+f.Name)
			}
		}
	}
	values(d.Consts)
	values(d.Vars)
	funcs("", d.Funcs)
	for _, ty := range d.Types {
		out = append(out, ty.Name)
		values(ty.Consts)
		values(ty.Vars)
		funcs("", ty.Funcs)
		funcs(ty.Name, ty.Methods)
	}
	slices.Sort(out)
	return out
}

// section returns the text of the "# name" section of a doc comment, up
// to the next heading.
func section(text, name string) (string, bool) {
	_, rest, ok := strings.Cut(text, "\n# "+name+"\n")
	if !ok {
		return "", false
	}
	if i := strings.Index(rest, "\n# "); i >= 0 {
		rest = rest[:i]
	}
	return rest, true
}
