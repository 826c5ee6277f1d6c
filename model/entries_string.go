package model

import (
	"fmt"
	"strings"
)

// EntriesString renders wire entries as {key:value, ...} in their order,
// for diagnostics and witness text.
func EntriesString(es []Entry) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = fmt.Sprintf("%s:%d", e.Key, e.Value)
	}
	return "{" + strings.Join(s, ", ") + "}"
}
