package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
)

// Capabilities a vector can need beyond reading its input as plain data.
// A client profile lacking one skips the vectors that need it, so each tag
// must follow from the vector's input alone.
const (
	// CapOverrideLayer: the input carries an override key (ov_ prefix),
	// whose group validation only a client of the override layer does.
	CapOverrideLayer = "override_layer"
	// CapDuplicateKeys: some object of the input repeats a member name, which
	// a reader built on a JSON parser that keeps the last one never sees.
	CapDuplicateKeys = "duplicate_keys"
	// CapNumberLiterals: the input spells a number other than as a plain
	// integer (1.0, 1e0, -0), a form such a parser reads by value.
	CapNumberLiterals = "number_literals"
)

// Capability is one tag of a vector's needs member.
type Capability struct {
	Name    string `json:"name"`
	Meaning string `json:"meaning"`
}

// Capabilities lists every tag, in the order a needs member lists them.
func Capabilities() []Capability {
	return []Capability{
		{CapOverrideLayer, "the input carries override keys (ov_s:, ov_c:, ov_b:): only a client of the manual-unread override layer validates their groups"},
		{CapDuplicateKeys, "some object of the input repeats a member name: the expected output counts or reports the repeat, which a parser keeping one value per name cannot see"},
		{CapNumberLiterals, "the input spells a number other than as a plain integer (a fraction, an exponent or -0): the expected output depends on the literal form, which a parser reading numbers by value cannot see"},
	}
}

// errDeep stops a walk of nesting deeper than any vector needs.
var errDeep = errors.New("nesting too deep to scan")

// plainInteger is a number literal every JSON parser reads alike.
var plainInteger = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// loneSurrogate matches a JSON escape of a surrogate half, which Go's
// decoder turns into U+FFFD: keys holding one are told apart by their raw
// text instead, as a parser keeping UTF-16 strings does.
var loneSurrogate = regexp.MustCompile(`(?i)\\ud[89a-f]`)

// codecNeeds tags a codec vector from its plaintext: override keys,
// repeated member names and literal number forms anywhere in the JSON
// text, as far as it parses.
func codecNeeds(raw json.RawMessage) ([]string, error) {
	var in codecInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	pt, err := in.bytes()
	if err != nil {
		return nil, err
	}
	var s jsonScan
	s.scan(pt)
	var out []string
	for _, c := range Capabilities() {
		if s.found[c.Name] {
			out = append(out, c.Name)
		}
	}
	return out, nil
}

// jsonScan walks one JSON text token by token, noting the features a
// capability names; an invalid text is walked up to its first error.
type jsonScan struct {
	src   []byte
	dec   *json.Decoder
	found map[string]bool
}

func (s *jsonScan) scan(src []byte) {
	s.src = src
	s.found = map[string]bool{}
	s.dec = json.NewDecoder(bytes.NewReader(src))
	s.dec.UseNumber()
	_ = s.value(0)
}

// value reads one value; depth bounds the recursion on hostile nesting.
func (s *jsonScan) value(depth int) error {
	if depth > 1000 {
		return errDeep
	}
	tok, err := s.dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Number:
		if !plainInteger.MatchString(t.String()) || t.String() == "-0" {
			s.found[CapNumberLiterals] = true
		}
	case json.Delim:
		switch t {
		case '[':
			for s.dec.More() {
				if err := s.value(depth + 1); err != nil {
					return err
				}
			}
			_, err = s.dec.Token()
			return err
		case '{':
			seen := map[string]bool{}
			for s.dec.More() {
				start := s.dec.InputOffset()
				kt, err := s.dec.Token()
				if err != nil {
					return err
				}
				key, _ := kt.(string)
				id := key
				if rawKey := s.src[start:s.dec.InputOffset()]; loneSurrogate.Match(rawKey) {
					id = "raw:" + strings.TrimSpace(strings.TrimLeft(string(rawKey), " \t\r\n,"))
				}
				if seen[id] {
					s.found[CapDuplicateKeys] = true
				}
				seen[id] = true
				if strings.HasPrefix(key, "ov_") {
					s.found[CapOverrideLayer] = true
				}
				if err := s.value(depth + 1); err != nil {
					return err
				}
			}
			_, err = s.dec.Token()
			return err
		}
	}
	return nil
}
