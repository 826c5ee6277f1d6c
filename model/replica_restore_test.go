package model

import "testing"

func TestRestoreInstallsExactState(t *testing.T) {
	tests := []struct {
		name    string
		f       uint32
		hasF    bool
		reg     Reg
		wantF   uint32
		wantCtx int
	}{
		{"raw dead register kept raw", 50, true, Reg{3, 2, 0}, 50, 1},
		{"virgin with baseline kept", 10, true, Reg{0, 0, 10}, 10, 1},
		{"register without frontier", 7, false, Reg{1, 0, 0}, 0, 1},
		{"nothing removes the context", 0, false, Reg{}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReplica("a")
			r.Advance("c0", 99)
			if err := r.Restore("c0", tc.f, tc.hasF, tc.reg); err != nil {
				t.Fatal(err)
			}
			if r.Frontier("c0") != tc.wantF || r.HasFrontier("c0") != tc.hasF || r.Reg("c0") != tc.reg {
				t.Errorf("got f=%d hasF=%v reg=%v", r.Frontier("c0"), r.HasFrontier("c0"), r.Reg("c0"))
			}
			if n := len(r.Contexts()); n != tc.wantCtx {
				t.Errorf("contexts = %d, want %d", n, tc.wantCtx)
			}
		})
	}
	if err := NewLegacyReplica("l", LegacyCarry).Restore("c0", 1, true, Reg{S: 1}); err == nil {
		t.Error("legacy replica accepted a register")
	}
}
