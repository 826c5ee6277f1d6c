package exhaustive

import (
	"fmt"
	"slices"
	"strings"
)

// Permutations lists the permutations of 0..n-1 in lexicographic order:
// the delivery orders the convergence checks try, and the device
// relabellings the symmetry reduction tries. The candidate encoding's
// world runs the same checks, so it takes them from here and its findings
// list orders exactly as the reference world's do.
func Permutations(n int) [][]int {
	var out [][]int
	p := make([]int, 0, n)
	used := make([]bool, n)
	var rec func()
	rec = func() {
		if len(p) == n {
			out = append(out, slices.Clone(p))
			return
		}
		for i := range n {
			if !used[i] {
				used[i] = true
				p = append(p, i)
				rec()
				p = p[:len(p)-1]
				used[i] = false
			}
		}
	}
	rec()
	return out
}

// OrderString names a delivery order as a finding prints it: the
// devices by index, d0,d1,...
func OrderString(p []int) string {
	s := make([]string, len(p))
	for i, d := range p {
		s[i] = fmt.Sprintf("d%d", d)
	}
	return strings.Join(s, ",")
}
