package gen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// exclusiveTiers are the adjacent tiers of the precedence orders that no
// plaintext can hit both of, hence without a case: a value that is not an
// object has no members, a client_id that is not a string has no UTF-8
// to judge, a contexts that is not an object has no entries, and a value
// that is not a number has no sign.
var exclusiveTiers = map[[2]string]bool{
	{BlobNotObject, "v_missing"}:                true,
	{"client_id_missing", "client_id_not_utf8"}: true,
	{"contexts_missing", "too_many_entries"}:    true,
	{DropValueNotNumber, DropValueNegative}:     true,
}

// tierOf is the index of code's tier in tiers, or -1.
func tierOf(tiers []precedenceTier, code string) int {
	return slices.IndexFunc(tiers, func(t precedenceTier) bool { return slices.Contains(t.Codes, code) })
}

// TestCodecPrecedence: the precedence VOCABULARY.md states for codec is
// the production codec's. Every case gives its winner; the winner ranks
// above the loser in the stated order (or, in a tier decided by what the
// parser meets first, the two win one case each); every pair of adjacent
// tiers has a case unless no plaintext hits both; and every code the codec
// gives is ranked somewhere.
func TestCodecPrecedence(t *testing.T) {
	rules := model.Proposed()
	orders := [][]precedenceTier{BlobPrecedence(), DropPrecedence(), GroupPrecedence()}
	covered := map[[2]string]bool{}
	metWins := map[string]bool{}
	for _, c := range precedenceCases() {
		got, err := precedenceCode(rules, c.Plaintext)
		if err != nil {
			t.Fatalf("%s over %s: %v", c.Win, c.Lose, err)
		}
		if got != c.Win {
			t.Errorf("%s over %s: the codec gives %q", c.Win, c.Lose, got)
		}
		for _, tiers := range orders {
			w, l := tierOf(tiers, c.Win), tierOf(tiers, c.Lose)
			if w < 0 || l < 0 {
				continue
			}
			switch {
			case w == l && tiers[w].Met:
				metWins[c.Win] = true
			case w < l:
			default:
				t.Errorf("%s over %s: the stated order ranks %s first", c.Win, c.Lose, c.Lose)
			}
			covered[[2]string{tiers[w].Codes[0], tiers[l].Codes[0]}] = true
		}
	}
	for _, tiers := range orders {
		for i, tier := range tiers {
			for _, code := range tier.Codes {
				if tier.Met && !metWins[code] {
					t.Errorf("tier %v is decided by what the parser meets first, but no case shows %s winning", tier.Codes, code)
				}
			}
			if i+1 == len(tiers) {
				continue
			}
			pair := [2]string{tier.Codes[0], tiers[i+1].Codes[0]}
			if !covered[pair] && !exclusiveTiers[pair] {
				t.Errorf("no case shows %v over %v", tier.Codes, tiers[i+1].Codes)
			}
		}
	}
	ranked := func(code string) bool {
		return slices.ContainsFunc(orders, func(tiers []precedenceTier) bool { return tierOf(tiers, code) >= 0 })
	}
	for _, code := range append(BlobCodes(), DropCodes()...) {
		// value_rejected is the residue no narrower code describes.
		if code == DropValueRejected {
			continue
		}
		if !ranked(code) {
			t.Errorf("code %s is ranked in no precedence order", code)
		}
	}
}

// TestCodecPrecedenceCatchesASwap: the same check fails when two tiers of
// the stated order are swapped, so the order in VOCABULARY.md is held.
func TestCodecPrecedenceCatchesASwap(t *testing.T) {
	rules := model.Proposed()
	tiers := DropPrecedence()
	tiers[0], tiers[1] = tiers[1], tiers[0]
	for _, c := range precedenceCases() {
		w, l := tierOf(tiers, c.Win), tierOf(tiers, c.Lose)
		if w < 0 || l < 0 {
			continue
		}
		got, err := precedenceCode(rules, c.Plaintext)
		if err != nil {
			t.Fatal(err)
		}
		if got == c.Win && w > l {
			return
		}
	}
	t.Fatal("swapping key_not_utf8 and key_too_long contradicts no case")
}

// TestRegisterStepsDocumented: every script step the register schema
// allows is defined in VOCABULARY.md's register rules and named in the
// README's vectors section, so a step added to the vectors cannot go
// undescribed.
func TestRegisterStepsDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(vectorsDir(t), "schema", "register.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Defs struct {
			Input struct {
				Properties struct {
					Steps struct {
						Items struct {
							Properties struct {
								Do struct {
									Enum []string `json:"enum"`
								} `json:"do"`
							} `json:"properties"`
						} `json:"items"`
					} `json:"steps"`
				} `json:"properties"`
			} `json:"input"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	steps := schema.Defs.Input.Properties.Steps.Items.Properties.Do.Enum
	if len(steps) == 0 {
		t.Fatal("the register schema lists no script steps")
	}
	rules := strings.Join(kindRules("register"), "\n")
	readme := readmeSection(t, "## Test your client against the vectors")
	for _, s := range steps {
		if !strings.Contains(rules, "`"+s+"`") {
			t.Errorf("step %s is not defined in the register rules of %s", s, VocabularyFile)
		}
		if !strings.Contains(readme, "`"+s+"`") {
			t.Errorf("step %s is not named in the README's vectors section", s)
		}
	}
}
