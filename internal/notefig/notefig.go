package notefig

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// TB is the part of testing.TB this package uses (so that importing it
// does not import package testing into a command).
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
}

// RequireLine reports an error unless text holds line (trimmed) as a line:
// a figure row the code computed that the note must carry.
func RequireLine(tb TB, text, line string) {
	tb.Helper()
	if !HasLine(text, line) {
		tb.Errorf("NOTE.md lacks the line the code computes:\n%s", line)
	}
}

// RequireMention reports an error unless text mentions phrase.
func RequireMention(tb TB, text, phrase string) {
	tb.Helper()
	if !Mentions(text, phrase) {
		tb.Errorf("NOTE.md lacks %q", phrase)
	}
}

// read returns NOTE.md at the module root: the first directory upwards
// from the working directory (a test runs in its package's directory) that
// holds go.mod.
func read(tb TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			data, err := os.ReadFile(filepath.Join(dir, "NOTE.md"))
			if err != nil {
				tb.Fatal(err)
			}
			return string(data)
		}
		up := filepath.Dir(dir)
		if up == dir {
			tb.Fatal("no go.mod above the working directory")
		}
		dir = up
	}
}

// Section returns the text of NOTE.md's level-2 section with this exact
// heading line ("## Mutants"), up to the next level-2 heading; it fails the
// test when the note or the section is missing.
func Section(tb TB, heading string) string {
	tb.Helper()
	_, sec, ok := strings.Cut("\n"+read(tb), "\n"+heading+"\n")
	if !ok {
		tb.Fatalf("NOTE.md has no section %q", heading)
	}
	if i := strings.Index(sec, "\n## "); i >= 0 {
		sec = sec[:i]
	}
	return sec
}

// Whole returns all of NOTE.md.
func Whole(tb TB) string {
	tb.Helper()
	return read(tb)
}

// Mentions reports whether text contains phrase with runs of white space
// collapsed on both sides, so reflowing the note does not matter.
func Mentions(text, phrase string) bool {
	return strings.Contains(strings.Join(strings.Fields(text), " "), strings.Join(strings.Fields(phrase), " "))
}

// HasLine reports whether text has a line that is exactly line once
// trimmed (a table row, whole).
func HasLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}

// Commas formats n with thousands separators, as the note writes figures
// and the commands print them: the one formatter of every figure.
func Commas[T ~int | ~int64](n T) string {
	s := strconv.FormatInt(int64(n), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
