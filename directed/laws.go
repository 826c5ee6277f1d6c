package directed

import (
	"fmt"

	"github.com/nip-rs/harness/model"
)

// I1: the join is a semilattice join on the 64 registers with S, C, B in
// 0..3: idempotent (64 registers), commutative (4,096 ordered pairs) and
// associative (262,144 ordered triples). Liveness plays no part, so these
// run once, not per tie policy.

const lawMax = 3 // components range over 0..lawMax

var lawParams = []string{"s", "c", "b"}

func lawReg(p Point, i int) model.Reg {
	return model.Reg{S: uint32(p[3*i]), C: uint32(p[3*i+1]), B: uint32(p[3*i+2])}
}

// registerCube is every register with components in 0..lawMax, k times.
func registerCube(k int) []Point {
	n := 1
	for range 3 * k {
		n *= lawMax + 1
	}
	out := make([]Point, n)
	for i := range n {
		p := make(Point, 3*k)
		x := i
		for j := 3*k - 1; j >= 0; j-- {
			p[j] = int32(x % (lawMax + 1))
			x /= lawMax + 1
		}
		out[i] = p
	}
	return out
}

func lawParamList(k int) []Param {
	var ps []Param
	for _, r := range []string{"a", "b", "c"}[:k] {
		for _, c := range lawParams {
			ps = append(ps, Param{Name: r + "." + c})
		}
	}
	return ps
}

func lawChecks() []*Check {
	return []*Check{
		{
			Key: "join-idempotent", Label: "I1", Name: "join idempotent", Params: lawParamList(1), TieIndependent: true,
			Cube: func(*model.Rules) []Point { return registerCube(1) },
			Prepare: func(r *model.Rules) func(Point) Outcome {
				return func(p Point) Outcome {
					a := lawReg(p, 0)
					if j := r.Join(a, a); j != a {
						return Outcome{Violation: "I1-join-not-idempotent", Detail: fmt.Sprintf("join(%v, %v) = %v", a, a, j)}
					}
					return Outcome{}
				}
			},
		},
		{
			Key: "join-commutative", Label: "I1", Name: "join commutative", Params: lawParamList(2), TieIndependent: true,
			Cube: func(*model.Rules) []Point { return registerCube(2) },
			Prepare: func(r *model.Rules) func(Point) Outcome {
				return func(p Point) Outcome {
					a, b := lawReg(p, 0), lawReg(p, 1)
					if x, y := r.Join(a, b), r.Join(b, a); x != y {
						return Outcome{Violation: "I1-join-not-commutative", Detail: fmt.Sprintf("join(%v, %v) = %v but join(%v, %v) = %v", a, b, x, b, a, y)}
					}
					return Outcome{}
				}
			},
		},
		{
			Key: "join-associative", Label: "I1", Name: "join associative", Params: lawParamList(3), TieIndependent: true,
			Cube: func(*model.Rules) []Point { return registerCube(3) },
			Prepare: func(r *model.Rules) func(Point) Outcome {
				return func(p Point) Outcome {
					a, b, c := lawReg(p, 0), lawReg(p, 1), lawReg(p, 2)
					if x, y := r.Join(r.Join(a, b), c), r.Join(a, r.Join(b, c)); x != y {
						return Outcome{Violation: "I1-join-not-associative", Detail: fmt.Sprintf("join(join(%v, %v), %v) = %v but join(%v, join(%v, %v)) = %v", a, b, c, x, a, b, c, y)}
					}
					return Outcome{}
				}
			},
		},
	}
}
