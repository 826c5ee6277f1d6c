package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/model"
)

// FormatVersion is the version of the vector file layout.
const FormatVersion = 1

// File is one kind's vector file, vectors/<kind>.json.
type File struct {
	Kind        string   `json:"kind"`
	Format      int      `json:"format"`
	Description string   `json:"description"`
	HowToRun    string   `json:"how_to_run"`
	Vectors     []Vector `json:"vectors"`
}

// Vector is one case: its input and the output the production core gives.
type Vector struct {
	ID          string          `json:"id"`
	Section     string          `json:"section"`
	Description string          `json:"description"`
	Input       json.RawMessage `json:"input"`
	Expected    json.RawMessage `json:"expected"`
	// ByValueExpected is set on codec vectors where reading a number
	// literal by its value (model.ByValueIntegers) decides otherwise.
	ByValueExpected json.RawMessage `json:"by_value_expected,omitempty"`
	// DistinctKeysExpected is set on codec vectors where counting distinct
	// keys toward the 10,000-entry limit (model.DistinctKeyLimit) decides
	// otherwise.
	DistinctKeysExpected json.RawMessage `json:"distinct_keys_expected,omitempty"`
	// UTF8DiscardExpected is set on codec vectors where discarding the
	// event for a key that is not valid UTF-8 (model.UTF8DiscardsEvent)
	// decides otherwise.
	UTF8DiscardExpected json.RawMessage `json:"utf8_discard_expected,omitempty"`
	// Proposals names the proposals of ERRATA.md (model.Proposals) the
	// expected output holds under only: absent, the vector holds under
	// the text as written (model.Spec) too.
	Proposals []string `json:"proposals,omitempty"`
	// Needs lists the capabilities (Capabilities) a client must have for
	// the expected output to be one it can produce; a profile lacking one
	// skips the vector.
	Needs []string `json:"needs,omitempty"`
}

// Case is one vector before generation.
type Case struct {
	ID          string
	Section     string
	Description string
	Input       any
}

// Kind is one vector kind.
type Kind struct {
	Name        string
	Description string
	HowToRun    string
	// Cases lists the inputs, in file order.
	Cases func() ([]Case, error)
	// Compute is the output of rules on one input.
	Compute func(rules *model.Rules, input json.RawMessage) (any, error)
	// ComputeHistory, set instead of Compute, is the output of the paged
	// history walk's rules on one input.
	ComputeHistory func(rules *history.Rules, input json.RawMessage) (any, error)
	// Needs, when set, tags an input with the capabilities it needs.
	Needs func(input json.RawMessage) ([]string, error)
	// Readings, when set, also computes under every rule set of
	// Readings() and records each output where it differs.
	Readings bool
}

// Reading is the other reading of an ambiguous sentence of the text, whose
// answer a vector records beside the expected output where the two
// differ, so that a client reading that way can compare with it.
type Reading struct {
	// Name is the rule set's name (model, mutants.Readings).
	Name string
	// Member is the vector member holding the answer.
	Member string
	Rules  func() *model.Rules
	// answer is that member of a vector.
	answer func(v *Vector) *json.RawMessage
}

// Answer is the reading's recorded answer on v, nil where the reading
// decides as the expected output says.
func (r Reading) Answer(v *Vector) json.RawMessage { return *r.answer(v) }

// Readings lists the readings the vectors record, in member order.
func Readings() []Reading {
	return []Reading{
		{model.ByValueIntegersName, "by_value_expected", model.ByValueIntegers,
			func(v *Vector) *json.RawMessage { return &v.ByValueExpected }},
		{model.DistinctKeyLimitName, "distinct_keys_expected", model.DistinctKeyLimit,
			func(v *Vector) *json.RawMessage { return &v.DistinctKeysExpected }},
		{model.UTF8DiscardsEventName, "utf8_discard_expected", model.UTF8DiscardsEvent,
			func(v *Vector) *json.RawMessage { return &v.UTF8DiscardExpected }},
	}
}

// Kinds lists every kind, in file order. Each how_to_run ends by pointing
// to the vocabulary, where every output code and the shared conventions
// of comparison are stated once.
func Kinds() []Kind {
	ks := []Kind{codecKind(), registerKind(), slotsKind(), eventsKind(), tracesKind(), loadKind(), historyKind()}
	for i := range ks {
		ks[i].HowToRun += " " + vocabularyPointer
	}
	return ks
}

// vocabularyPointer closes every how_to_run.
const vocabularyPointer = "Every code an output carries, its meaning and section, and the conventions of comparison (array order, absent members, key_hex, the load's subscription ids and CLOSE discipline) are in vectors/" + VocabularyFile + "."

// marshal encodes v compactly without HTML escaping, so keys read as typed.
func marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// Generate builds one kind's file under the production rules.
func Generate(k Kind) (File, error) {
	cases, err := k.Cases()
	if err != nil {
		return File{}, fmt.Errorf("%s: %w", k.Name, err)
	}
	f := File{Kind: k.Name, Format: FormatVersion, Description: k.Description, HowToRun: k.HowToRun}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.ID] {
			return File{}, fmt.Errorf("%s: duplicate vector id %q", k.Name, c.ID)
		}
		seen[c.ID] = true
		in, err := marshal(c.Input)
		if err != nil {
			return File{}, fmt.Errorf("%s: %w", c.ID, err)
		}
		out, err := computeRaw(k, SpecRules(), in)
		if err != nil {
			return File{}, fmt.Errorf("%s: %w", c.ID, err)
		}
		v := Vector{ID: c.ID, Section: c.Section, Description: c.Description, Input: in, Expected: out}
		if k.Compute != nil {
			if v.Proposals, err = needs(k, in, out); err != nil {
				return File{}, fmt.Errorf("%s: %w", c.ID, err)
			}
		}
		if k.Needs != nil {
			if v.Needs, err = k.Needs(in); err != nil {
				return File{}, fmt.Errorf("%s: %w", c.ID, err)
			}
		}
		if k.Readings {
			for _, r := range Readings() {
				alt, err := computeRaw(k, RuleSet{Model: r.Rules(), History: history.Spec()}, in)
				if err != nil {
					return File{}, fmt.Errorf("%s under %s: %w", c.ID, r.Name, err)
				}
				if !bytes.Equal(alt, out) {
					*r.answer(&v) = alt
				}
			}
		}
		f.Vectors = append(f.Vectors, v)
	}
	return f, nil
}

// needs lists the proposals a vector's output out holds under only: each
// proposal whose absence alone changes the output, or, where the text
// decides otherwise and no single absence does, every proposal.
func needs(k Kind, in, out json.RawMessage) ([]string, error) {
	text, err := computeRaw(k, RuleSet{Model: model.Spec(), History: history.Spec()}, in)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(text, out) {
		return nil, nil
	}
	var names, all []string
	for _, p := range model.Proposals() {
		all = append(all, p.Name)
		without, _ := model.Without(p.Name)
		alt, err := computeRaw(k, RuleSet{Model: without, History: history.Spec()}, in)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(alt, out) {
			names = append(names, p.Name)
		}
	}
	if len(names) == 0 {
		return all, nil
	}
	return names, nil
}

// RuleSet is what the vectors are replayed under: the core's rules and
// the paged history walk's.
type RuleSet struct {
	Model   *model.Rules
	History *history.Rules
}

// SpecRules is the production rule set the vectors are generated under.
func SpecRules() RuleSet { return RuleSet{Model: model.Proposed(), History: history.Spec()} }

func computeRaw(k Kind, rs RuleSet, in json.RawMessage) (json.RawMessage, error) {
	var out any
	var err error
	if k.ComputeHistory != nil {
		out, err = k.ComputeHistory(rs.History, in)
	} else {
		out, err = k.Compute(rs.Model, in)
	}
	if err != nil {
		return nil, err
	}
	return marshal(out)
}

// Encode is the committed bytes of a file: one vector per line inside an
// indented envelope, so a diff shows which vector changed.
func Encode(f File) ([]byte, error) {
	var buf bytes.Buffer
	head := func(name string, v any) error {
		b, err := marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(&buf, "  %q: %s,\n", name, b)
		return nil
	}
	buf.WriteString("{\n")
	for _, kv := range []struct {
		k string
		v any
	}{{"kind", f.Kind}, {"format", f.Format}, {"description", f.Description}, {"how_to_run", f.HowToRun}} {
		if err := head(kv.k, kv.v); err != nil {
			return nil, err
		}
	}
	buf.WriteString("  \"vectors\": [\n")
	for i, v := range f.Vectors {
		b, err := marshal(v)
		if err != nil {
			return nil, err
		}
		buf.WriteString("    ")
		buf.Write(b)
		if i+1 < len(f.Vectors) {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("  ]\n}\n")
	return buf.Bytes(), nil
}

// Outputs is every generated file by relative path: the vector files,
// their schemas and the vocabulary.
func Outputs() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, k := range Kinds() {
		f, err := Generate(k)
		if err != nil {
			return nil, err
		}
		b, err := Encode(f)
		if err != nil {
			return nil, err
		}
		out[k.Name+".json"] = b
		s, err := SchemaJSON(k.Name)
		if err != nil {
			return nil, err
		}
		out[filepath.Join("schema", k.Name+".schema.json")] = s
	}
	doc, err := VocabularyMarkdown()
	if err != nil {
		return nil, err
	}
	out[VocabularyFile] = doc
	prof, err := ProfilesJSON()
	if err != nil {
		return nil, err
	}
	out[ProfilesFileName] = prof
	return out, nil
}

// Write generates every file into dir.
func Write(dir string) error {
	out, err := Outputs()
	if err != nil {
		return err
	}
	for name, b := range out {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Read loads a committed vector file.
func Read(path string) (File, error) {
	var f File
	b, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}
