package witnessfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Params is a point with its parameter names, in order; it is the "point"
// object of a directed witness file.
type Params []ParamValue

// ParamValue is one named coordinate: Str for enumerated parameters.
type ParamValue struct {
	Name  string
	Str   string
	Num   int64
	IsStr bool
}

func (ps Params) String() string {
	var s []string
	for _, p := range ps {
		if p.IsStr {
			s = append(s, fmt.Sprintf("%s=%q", p.Name, p.Str))
		} else {
			s = append(s, fmt.Sprintf("%s=%d", p.Name, p.Num))
		}
	}
	return strings.Join(s, " ")
}

// MarshalJSON writes the point as an object with keys in parameter order.
func (ps Params) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.Name)
		b.Write(k)
		b.WriteByte(':')
		if p.IsStr {
			v, _ := json.Marshal(p.Str)
			b.Write(v)
		} else {
			b.WriteString(strconv.FormatInt(p.Num, 10))
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object of strings and integers, keeping its order.
func (ps *Params) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("point must be an object")
	}
	var out Params
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		v, err := dec.Token()
		if err != nil {
			return err
		}
		switch x := v.(type) {
		case string:
			out = append(out, ParamValue{Name: name, Str: x, IsStr: true})
		case json.Number:
			n, err := x.Int64()
			if err != nil {
				return fmt.Errorf("point %s: %v", name, err)
			}
			out = append(out, ParamValue{Name: name, Num: n})
		default:
			return fmt.Errorf("point %s: want a string or an integer", name)
		}
	}
	*ps = out
	return nil
}
