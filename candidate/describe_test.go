package candidate

import "testing"

func TestDescribe(t *testing.T) {
	if got, want := Describe("A"), "wire encoding A: "+(EncodingA{}).Doc(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := Describe("Z"); got != "wire encoding Z" {
		t.Errorf("unknown encoding: %q", got)
	}
}
