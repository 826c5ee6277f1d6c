package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// validate checks v against the subset of JSON Schema the generated
// schemas use: $ref into $defs, type, const, enum, properties, required,
// additionalProperties, items, minItems, maxItems, minimum, maximum and
// pattern. It returns the first violation.
func validate(root, s map[string]any, v any, at string) error {
	if r, ok := s["$ref"].(string); ok {
		name := r[len("#/$defs/"):]
		def, ok := root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok {
			return fmt.Errorf("%s: unknown $ref %s", at, r)
		}
		return validate(root, def, v, at)
	}
	if c, ok := s["const"]; ok && fmt.Sprint(c) != fmt.Sprint(v) {
		return fmt.Errorf("%s: %v is not the constant %v", at, v, c)
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return x == v }) {
		return fmt.Errorf("%s: %v is not one of %v", at, v, e)
	}
	switch s["type"] {
	case "object":
		o, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: not an object", at)
		}
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]any)
		for _, r := range req {
			if _, ok := o[r.(string)]; !ok {
				return fmt.Errorf("%s: %s is required", at, r)
			}
		}
		for k, x := range o {
			sub, ok := props[k].(map[string]any)
			if !ok {
				switch ap := s["additionalProperties"].(type) {
				case bool:
					if !ap {
						return fmt.Errorf("%s: unexpected member %q", at, k)
					}
					continue
				case map[string]any:
					sub = ap
				default:
					continue
				}
			}
			if err := validate(root, sub, x, at+"."+k); err != nil {
				return err
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: not an array", at)
		}
		if n, ok := s["minItems"].(json.Number); ok && len(a) < atoi(n) {
			return fmt.Errorf("%s: fewer than %s items", at, n)
		}
		if n, ok := s["maxItems"].(json.Number); ok && len(a) > atoi(n) {
			return fmt.Errorf("%s: more than %s items", at, n)
		}
		if it, ok := s["items"].(map[string]any); ok {
			for i, x := range a {
				if err := validate(root, it, x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: not a string", at)
		}
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
			return fmt.Errorf("%s: %q does not match %s", at, str, p)
		}
	case "integer":
		n, ok := v.(json.Number)
		x, okInt := new(big.Int).SetString(string(n), 10)
		if !ok || !okInt {
			return fmt.Errorf("%s: %v is not an integer", at, v)
		}
		if m, ok := s["minimum"].(json.Number); ok && x.Cmp(bigOf(m)) < 0 {
			return fmt.Errorf("%s: %v below %s", at, v, m)
		}
		if m, ok := s["maximum"].(json.Number); ok && x.Cmp(bigOf(m)) > 0 {
			return fmt.Errorf("%s: %v above %s", at, v, m)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: not a boolean", at)
		}
	}
	return nil
}

func atoi(n json.Number) int { i, _ := n.Int64(); return int(i) }

func bigOf(n json.Number) *big.Int { x, _ := new(big.Int).SetString(string(n), 10); return x }

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func readSchema(t *testing.T, kind string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorsDir(t), "schema", kind+".schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return decodeJSON(t, b).(map[string]any)
}

// TestVectorsMatchSchemas: every committed file is valid under its schema.
func TestVectorsMatchSchemas(t *testing.T) {
	for _, k := range Kinds() {
		b, err := os.ReadFile(filepath.Join(vectorsDir(t), k.Name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		s := readSchema(t, k.Name)
		if err := validate(s, s, decodeJSON(t, b), k.Name); err != nil {
			t.Errorf("%v", err)
		}
	}
}

// TestSchemasReject: the schemas, and the validator, refuse a file with an
// unknown member, a wrong kind, an out-of-range value or a missing field.
func TestSchemasReject(t *testing.T) {
	s := readSchema(t, "register")
	for _, doc := range []string{
		`{"kind":"register","format":1,"description":"","how_to_run":"","vectors":[],"extra":1}`,
		`{"kind":"codec","format":1,"description":"","how_to_run":"","vectors":[]}`,
		`{"kind":"register","format":1,"description":"","how_to_run":"","vectors":[{"id":"register/x","section":"","description":"","input":{"op":"join","a":[1,2,4294967296],"b":[0,0,0]},"expected":{}}]}`,
		`{"kind":"register","format":1,"description":"","how_to_run":"","vectors":[{"id":"register/x","section":"","description":"","input":{"op":"join"}}]}`,
		`{"kind":"register","format":1,"description":"","how_to_run":"","vectors":[{"id":"codec/x","section":"","description":"","input":{"op":"join"},"expected":{}}]}`,
	} {
		if err := validate(s, s, decodeJSON(t, []byte(doc)), "doc"); err == nil {
			t.Errorf("accepted %s", doc)
		}
	}
}

// TestNewSchemasReject: the load and history schemas refuse a frame that
// is not an array, an unknown verdict, and a page message of no known type.
func TestNewSchemasReject(t *testing.T) {
	load := readSchema(t, "load")
	hist := readSchema(t, "history")
	cfg := `"config":{"pubkey":"ab","limit":2,"sub_prefix":"h","first_until":4294967291}`
	for _, c := range []struct {
		s   map[string]any
		doc string
	}{
		{load, `{"kind":"load","format":1,"description":"","how_to_run":"","vectors":[{"id":"load/x","section":"","description":"","input":{` + cfg + `,"frames":[{"EOSE":"h-fence"}]},"expected":{"start":[],"replies":[],"verdict":"complete","reason":"none","coordinates":{}}}]}`},
		{load, `{"kind":"load","format":1,"description":"","how_to_run":"","vectors":[{"id":"load/x","section":"","description":"","input":{` + cfg + `,"frames":[]},"expected":{"start":[],"replies":[],"verdict":"done","reason":"none","coordinates":{}}}]}`},
		{hist, `{"kind":"history","format":1,"description":"","how_to_run":"","vectors":[{"id":"history/x","section":"","description":"","input":{"config":{"page_wraps":1,"catch_up_pages":1,"load_older_pages":1,"overlap_ms":0},"relays":1,"steps":[{"do":"round","intent":"older","pages":[{"relays":[[{"type":"notice"}]]}]}]},"expected":[]}]}`},
	} {
		if err := validate(c.s, c.s, decodeJSON(t, []byte(c.doc)), "doc"); err == nil {
			t.Errorf("accepted %s", c.doc)
		}
	}
}
