package witnesshtml

import (
	"regexp"
	"strconv"
)

// The load's picture: the relay's events and each REQ's window on one
// time axis, read from the scenario's rows.

var (
	reqLine      = regexp.MustCompile(`^→ REQ (\S+)(.*)$`)
	reqParam     = regexp.MustCompile(`\b(limit|since|until)=(\d+)`)
	storedLine   = regexp.MustCompile(`^stored (\S+?)@(\d+)`)
	eventLine    = regexp.MustCompile(`^← EVENT (\S+) (\S+?)@(\d+)`)
	missingEvent = regexp.MustCompile(`(\S+?)@\d+/\S+ missing`)
)

// loadAxis fills each row's picture fields and the axis the picture spans:
// every time an event or a window bound names, one second either side.
func loadAxis(out *Witness) {
	missing := map[string]bool{}
	for _, m := range missingEvent.FindAllStringSubmatch(out.Detail, -1) {
		missing[m[1]] = true
	}
	lo, hi, any := int64(0), int64(0), false
	see := func(t int64) {
		if !any || t < lo {
			lo = t
		}
		if !any || t > hi {
			hi = t
		}
		any = true
	}
	for i := range out.Load {
		r := &out.Load[i]
		switch {
		case r.Lane == "query":
			m := reqLine.FindStringSubmatch(r.Text)
			if m == nil {
				continue
			}
			r.Sub = m[1]
			for _, p := range reqParam.FindAllStringSubmatch(m[2], -1) {
				v, _ := strconv.ParseInt(p[2], 10, 64)
				switch p[1] {
				case "limit":
					r.Limit = int(v)
				case "since":
					r.Since = &v
					see(v)
				case "until":
					r.Until = &v
					see(v)
				}
			}
		case r.Lane == "relay":
			if m := storedLine.FindStringSubmatch(r.Text); m != nil {
				v, _ := strconv.ParseInt(m[2], 10, 64)
				r.Event, r.At, r.Missing = m[1], &v, missing[m[1]]
				see(v)
			}
		case r.Lane == "delivery":
			if m := eventLine.FindStringSubmatch(r.Text); m != nil {
				v, _ := strconv.ParseInt(m[3], 10, 64)
				r.Sub, r.Event, r.At = m[1], m[2], &v
				see(v)
			}
		}
	}
	if any {
		out.Axis = &[2]int64{lo - 1, hi + 1}
	}
}
