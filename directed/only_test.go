package directed

import (
	"strings"
	"testing"
)

// The empty list is every check (nil); a list names exactly its keys; an
// unknown key is refused by name.
func TestOnlySet(t *testing.T) {
	if m, err := OnlySet(""); m != nil || err != nil {
		t.Errorf("empty: %v %v", m, err)
	}
	cs := Checks()
	a, b := cs[0].Key, cs[len(cs)-1].Key
	m, err := OnlySet(a + "," + b)
	if err != nil || len(m) != 2 || !m[a] || !m[b] {
		t.Errorf("%s,%s: %v %v", a, b, m, err)
	}
	if _, err := OnlySet(a + ",no-such-check"); err == nil || !strings.Contains(err.Error(), `"no-such-check"`) {
		t.Errorf("unknown key: %v", err)
	}
}
