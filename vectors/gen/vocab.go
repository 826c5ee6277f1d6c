package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/model"
)

// VocabularyFile is the generated vocabulary's path under vectors/.
const VocabularyFile = "VOCABULARY.md"

// Code is one value an output member can take, with its meaning and the
// section of the text it comes from.
type Code struct {
	Code    string
	Meaning string
	Section string
}

// Field is one member of a kind's expected output whose value is a code.
type Field struct {
	// Kinds are the vector kinds whose expected output carries it.
	Kinds []string
	// Member is where it sits, in words, for the document.
	Member string
	// Paths locate it relative to a vector's expected output (and to each
	// reading's member): names separated by dots, [] for every element of
	// an array.
	Paths []string
	Codes []Code
}

// meaning is a code's line in the vocabulary: what it says and where the
// text says it.
type meaning struct{ text, section string }

// join pairs every enumerated code with its meaning: a code without one,
// or a meaning no enumeration gives, is an error, so the document can
// neither miss a code the outputs can carry nor describe one they cannot.
func join(member string, codes []string, meanings ...map[string]meaning) ([]Code, error) {
	all := map[string]meaning{}
	for _, m := range meanings {
		for k, v := range m {
			all[k] = v
		}
	}
	var out []Code
	seen := map[string]bool{}
	for _, c := range codes {
		if seen[c] {
			return nil, fmt.Errorf("%s: code %q enumerated twice", member, c)
		}
		seen[c] = true
		m, ok := all[c]
		if !ok {
			return nil, fmt.Errorf("%s: code %q has no meaning in the vocabulary", member, c)
		}
		out = append(out, Code{Code: c, Meaning: m.text, Section: m.section})
	}
	var extra []string
	for k := range all {
		if !seen[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		return nil, fmt.Errorf("%s: meanings for codes no enumeration gives: %s", member, strings.Join(extra, ", "))
	}
	return out, nil
}

func names[T fmt.Stringer](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

// Vocabulary lists every coded member of the vectors' outputs with every
// value it can take, from the enumerations of the code that produces them.
func Vocabulary() ([]Field, error) {
	type spec struct {
		kinds    []string
		member   string
		paths    []string
		codes    []string
		meanings []map[string]meaning
	}
	specs := []spec{
		{[]string{"codec", "events"}, "outcome (events: blob.outcome)", []string{"outcome", "blob.outcome"},
			Outcomes(), []map[string]meaning{outcomeMeanings}},
		{[]string{"codec", "events"}, "reason (events: blob.reason)", []string{"reason", "blob.reason"},
			BlobCodes(), []map[string]meaning{blobMeanings}},
		{[]string{"codec", "events"}, "dropped[].reason (events: blob.dropped[].reason)", []string{"dropped.[].reason", "blob.dropped.[].reason"},
			DropCodes(), []map[string]meaning{dropMeanings}},
		{[]string{"events"}, "error", []string{"error"}, EventErrorCodes(), []map[string]meaning{eventErrorMeanings}},
		{[]string{"events"}, "role", []string{"role"}, names(model.BlobRoles()), []map[string]meaning{roleMeanings}},
		{[]string{"events"}, "refusal", []string{"refusal"}, DeleteRefusalCodes(), []map[string]meaning{refusalMeanings}},
		{[]string{"register"}, "error, after[].error", []string{"error", "after.[].error"}, ActionErrorCodes(), []map[string]meaning{actionMeanings}},
		{[]string{"register"}, "shape", []string{"shape"}, names(model.Shapes()), []map[string]meaning{shapeMeanings}},
		{[]string{"slots"}, "error", []string{"error"}, SplitErrorCodes(), []map[string]meaning{splitMeanings}},
		{[]string{"slots"}, "evicted[].reason", []string{"evicted.[].reason"}, names(model.EvictReasons()), []map[string]meaning{evictMeanings}},
		{[]string{"traces"}, "[].error", []string{"[].error"}, append(ActionErrorCodes(), SplitErrorCodes()...),
			[]map[string]meaning{actionMeanings, splitMeanings}},
		{[]string{"load"}, "verdict", []string{"verdict"}, names(model.Verdicts()), []map[string]meaning{verdictMeanings}},
		{[]string{"load"}, "reason", []string{"reason"}, names(model.Reasons()), []map[string]meaning{loadReasonMeanings}},
		{[]string{"history"}, "[].pages[].pass", []string{"[].pages.[].pass"}, names(history.Passes()), []map[string]meaning{passMeanings}},
		{[]string{"history"}, "[].errors[].kind", []string{"[].errors.[].kind"}, history.FailKinds(), []map[string]meaning{failMeanings}},
	}
	var out []Field
	for _, s := range specs {
		codes, err := join(strings.Join(s.kinds, ",")+" "+s.member, s.codes, s.meanings...)
		if err != nil {
			return nil, err
		}
		out = append(out, Field{Kinds: s.kinds, Member: s.member, Paths: s.paths, Codes: codes})
	}
	return out, nil
}

// valuesAt collects the strings at path in a decoded JSON value.
func valuesAt(v any, path []string, out *[]string) {
	if len(path) == 0 {
		if s, ok := v.(string); ok {
			*out = append(*out, s)
		}
		return
	}
	switch x := v.(type) {
	case []any:
		if path[0] == "[]" {
			for _, e := range x {
				valuesAt(e, path[1:], out)
			}
		}
	case map[string]any:
		if e, ok := x[path[0]]; ok {
			valuesAt(e, path[1:], out)
		}
	}
}

// FieldValues lists the values a field takes in one vector's expected
// output and in each reading's answer recorded beside it.
func FieldValues(f Field, v Vector) ([]string, error) {
	outs := []json.RawMessage{v.Expected}
	for _, r := range Readings() {
		if a := r.Answer(&v); a != nil {
			outs = append(outs, a)
		}
	}
	var vals []string
	for _, raw := range outs {
		var x any
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&x); err != nil {
			return nil, fmt.Errorf("%s: %w", v.ID, err)
		}
		for _, p := range f.Paths {
			valuesAt(x, strings.Split(p, "."), &vals)
		}
	}
	return vals, nil
}

// CheckVocabulary lists every coded value of f's vectors the vocabulary
// lacks, as "id: member value".
func CheckVocabulary(fields []Field, f File) ([]string, error) {
	var bad []string
	for _, fl := range fields {
		if !fl.has(f.Kind) {
			continue
		}
		known := map[string]bool{}
		for _, c := range fl.Codes {
			known[c.Code] = true
		}
		for _, v := range f.Vectors {
			vals, err := FieldValues(fl, v)
			if err != nil {
				return nil, err
			}
			for _, s := range vals {
				if !known[s] {
					bad = append(bad, fmt.Sprintf("%s: %s %q", v.ID, fl.Member, s))
				}
			}
		}
	}
	return bad, nil
}

func (f Field) has(kind string) bool {
	for _, k := range f.Kinds {
		if k == kind {
			return true
		}
	}
	return false
}
