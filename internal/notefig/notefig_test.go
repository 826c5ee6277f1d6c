package notefig

import "testing"

func TestCommas(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 45074: "45,074", 262144: "262,144", -1234567: "-1,234,567"} {
		if got := Commas(n); got != want {
			t.Errorf("Commas(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestMentionsAndLines(t *testing.T) {
	text := "a pinned\nfigure of 7,129 states\n| row | 1 |\n"
	if !Mentions(text, "figure of 7,129") || Mentions(text, "7,130") {
		t.Fatal("Mentions must collapse line breaks and match exactly")
	}
	if !HasLine(text, "| row | 1 |") || HasLine(text, "| row |") {
		t.Fatal("HasLine must match a whole line")
	}
}

func TestSection(t *testing.T) {
	sec := Section(t, "## Mutants")
	if !Mentions(sec, "mutant") {
		t.Fatal("the Mutants section of NOTE.md does not mention mutants")
	}
}
