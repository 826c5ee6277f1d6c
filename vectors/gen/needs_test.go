package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	// jsonString matches a JSON string literal, escapes included.
	jsonString = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	// literalForm matches, in a text whose strings are blanked, a number
	// spelled with a fraction or exponent, or a minus zero.
	literalForm = regexp.MustCompile(`\d[.eE]|-0(?:[^0-9.eE]|$)`)
	// memberName matches a member name in a text whose strings are blanked.
	memberName = regexp.MustCompile(`""\s*:`)
)

// blanked is text with every string literal emptied, so that what is left
// is structure and numbers.
func blanked(b []byte) []byte { return jsonString.ReplaceAll(b, []byte(`""`)) }

// checkNeeds says how v's capability tags disagree with its content, by
// means other than the generator's token walk: the expected outputs
// (a reported duplicate, an override group drop, a by-value answer each
// require their tag) and the plaintext's text (an ov_ name, a literal form,
// fewer member names once decoded into maps, which keep one per name).
// Inputs that do not decode, or whose names hold surrogate escapes that
// decoding merges, are checked only from tag to content; they are counted
// in loose.
func checkNeeds(v Vector, loose *int) []string {
	var in codecInput
	if err := json.Unmarshal(v.Input, &in); err != nil {
		return []string{err.Error()}
	}
	pt, err := in.bytes()
	if err != nil {
		return []string{err.Error()}
	}
	has := func(c string) bool { return slices.Contains(v.Needs, c) }
	var bad []string
	require := func(c, why string) {
		if !has(c) {
			bad = append(bad, fmt.Sprintf("%s: not tagged %s, but %s", v.ID, c, why))
		}
	}
	forbid := func(c, why string) {
		if has(c) {
			bad = append(bad, fmt.Sprintf("%s: tagged %s, but %s", v.ID, c, why))
		}
	}
	outs := string(v.Expected) + string(v.ByValueExpected) + string(v.DistinctKeysExpected) + string(v.UTF8DiscardExpected)
	if strings.Contains(outs, `"duplicates":`) {
		require(CapDuplicateKeys, "an output reports duplicates")
	}
	if strings.Contains(outs, `"reason":"group_`) {
		require(CapOverrideLayer, "an output drops an override group")
	}
	if v.ByValueExpected != nil {
		require(CapNumberLiterals, "reading numbers by value decides otherwise")
	}
	plain := blanked(pt)
	if !bytes.Contains(pt, []byte(`"ov_`)) {
		forbid(CapOverrideLayer, "the plaintext names no ov_ key")
	}
	if !literalForm.Match(plain) {
		forbid(CapNumberLiterals, "the plaintext spells every number as a plain integer")
	}
	var decoded any
	exact := json.Valid(pt) && !loneSurrogate.Match(pt)
	if exact && json.Unmarshal(pt, &decoded) == nil {
		again, _ := json.Marshal(decoded)
		fewer := len(memberName.FindAll(blanked(again), -1)) < len(memberName.FindAll(plain, -1))
		if fewer {
			require(CapDuplicateKeys, "decoding into maps loses member names")
		} else {
			forbid(CapDuplicateKeys, "decoding into maps keeps every member name")
		}
		if bytes.Contains(pt, []byte(`"ov_`)) {
			require(CapOverrideLayer, "the plaintext names an ov_ key")
		}
		if literalForm.Match(plain) {
			require(CapNumberLiterals, "the plaintext spells a number other than as a plain integer")
		}
	} else {
		*loose++
		if has(CapDuplicateKeys) && len(memberName.FindAll(plain, -1)) < 2 {
			bad = append(bad, fmt.Sprintf("%s: tagged %s with fewer than two member names", v.ID, CapDuplicateKeys))
		}
	}
	return bad
}

// TestNeedsMatchContent: every codec vector's needs tags agree with its
// input and expected outputs, each capability is needed by some vector
// (else a profile lacking it skips nothing), and only the codec kind,
// whose input is a JSON text, carries tags.
func TestNeedsMatchContent(t *testing.T) {
	tagged := map[string]int{}
	loose, total := 0, 0
	for _, f := range committed(t) {
		for _, v := range f.Vectors {
			if f.Kind != "codec" {
				if len(v.Needs) > 0 {
					t.Errorf("%s: a %s vector tagged %v", v.ID, f.Kind, v.Needs)
				}
				continue
			}
			total++
			for _, c := range v.Needs {
				tagged[c]++
			}
			for _, b := range checkNeeds(v, &loose) {
				t.Error(b)
			}
		}
	}
	for _, c := range Capabilities() {
		if tagged[c.Name] == 0 {
			t.Errorf("no vector needs %s", c.Name)
		}
	}
	if loose*4 > total {
		t.Errorf("%d of %d codec vectors checked only from tag to content", loose, total)
	}
	t.Logf("%d codec vectors, %d checked only from tag to content; tags %v", total, loose, tagged)
}

// TestCheckNeedsCatchesWrongTags: the check reports a vector that lost a
// tag its content requires and one given a tag its content lacks.
func TestCheckNeedsCatchesWrongTags(t *testing.T) {
	k, _ := KindByName("codec")
	f, err := Generate(k)
	if err != nil {
		t.Fatal(err)
	}
	caught := map[string]bool{}
	var loose int
	for _, v := range f.Vectors {
		for _, c := range v.Needs {
			w := v
			w.Needs = slices.DeleteFunc(slices.Clone(v.Needs), func(x string) bool { return x == c })
			if len(checkNeeds(w, &loose)) > 0 {
				caught["missing "+c] = true
			}
		}
		if len(v.Needs) == 0 {
			for _, c := range Capabilities() {
				w := v
				w.Needs = []string{c.Name}
				if len(checkNeeds(w, &loose)) > 0 {
					caught["extra "+c.Name] = true
				}
			}
		}
	}
	for _, c := range Capabilities() {
		for _, how := range []string{"missing ", "extra "} {
			if !caught[how+c.Name] {
				t.Errorf("no vector shows the check catching a %s tag", how+c.Name)
			}
		}
	}
}
