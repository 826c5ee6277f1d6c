package relaycheck

import (
	"encoding/json"
	"maps"
	"reflect"
	"strings"
)

// The evidence file may be written by a newer version of this package
// that knows more fields; rewriting it must not drop them. Record and the
// file's top level keep every field they do not know and write it back.

// jsonNames are the JSON names of a struct type's fields.
func jsonNames(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = true
	}
	return out
}

// splitUnknown decodes data into v (a pointer to a struct) and returns
// the fields v's type does not name.
func splitUnknown(data []byte, v any) (map[string]json.RawMessage, error) {
	if err := json.Unmarshal(data, v); err != nil {
		return nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	known := jsonNames(reflect.TypeOf(v).Elem())
	for k := range all {
		if known[k] {
			delete(all, k)
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	return all, nil
}

// joinUnknown encodes v and adds the unknown fields it does not set
// itself (an object's keys come out sorted, so the output is stable).
func joinUnknown(v any, unknown map[string]json.RawMessage) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil || len(unknown) == 0 {
		return data, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	extra := maps.Clone(unknown)
	maps.Copy(extra, all)
	return json.Marshal(extra)
}

// recordFields is Record without its methods, for encoding.
type recordFields Record

func (r *Record) UnmarshalJSON(data []byte) error {
	var f recordFields
	unknown, err := splitUnknown(data, &f)
	if err != nil {
		return err
	}
	*r = Record(f)
	r.unknown = unknown
	return nil
}

func (r Record) MarshalJSON() ([]byte, error) { return joinUnknown(recordFields(r), r.unknown) }
