package history

import (
	"fmt"
	"testing"
)

func TestTmp(t *testing.T) {
	for _, r := range []*Rules{Healing()} {
		for _, k := range []bool{false, true} {
			o, err := Explore(DefaultUniverse(), r, k, 2, false)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Println(r.Name, k, o.Status, o.Distinct, o.PerDepth, o.Violations)
			if o.Witness != nil {
				fmt.Println(o.Text)
			}
		}
	}
}
