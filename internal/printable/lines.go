package printable

import (
	"io"
	"strings"
)

// Lines is a writer that escapes everything written through it as Escape
// does, but for the newlines that end lines: a report made of lines that
// quote outside text keeps its lines and holds no control character,
// whatever the text held.
func Lines(w io.Writer) io.Writer { return lineWriter{w} }

type lineWriter struct{ w io.Writer }

func (e lineWriter) Write(p []byte) (int, error) {
	var b strings.Builder
	for _, l := range strings.SplitAfter(string(p), "\n") {
		body, nl := strings.CutSuffix(l, "\n")
		b.WriteString(Escape(body, 0))
		if nl {
			b.WriteByte('\n')
		}
	}
	if _, err := io.WriteString(e.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}
