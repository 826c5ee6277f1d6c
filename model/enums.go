package model

// enumerate is the n values 0..n-1 of an enumeration whose names are held
// in an array of length n: the exported lists (Verdicts, Reasons, Shapes,
// ...) derive from those arrays, so a value added with its name is listed
// without a second edit.
func enumerate[T ~uint8](n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = T(i)
	}
	return out
}
