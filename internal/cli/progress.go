package cli

import (
	"fmt"
	"time"
)

// Roughly writes a duration as a person would estimate it, for the
// time-left part of a progress line.
func Roughly(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return "a few seconds"
	case d < 90*time.Second:
		return fmt.Sprintf("about %d s", int(d.Round(5*time.Second).Seconds()))
	case d < 90*time.Minute:
		return fmt.Sprintf("about %d min", int(d.Round(time.Minute).Minutes()))
	}
	return fmt.Sprintf("about %.1f h", d.Hours())
}
