package witnesshtml

import (
	"regexp"
	"strconv"
	"strings"
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

// nearEvents is how far (seconds) from the events a window bound may lie
// and still be drawn to scale; one further is drawn as an open end (a
// load opens its first window at until=2^32−k, which to scale would make
// the picture billions of seconds wide).
const nearEvents = 4

// loadAxis fills each row's picture fields and the axis the picture spans:
// every event's time and every window bound near them, one second either
// side.
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
	var bounds []*LoadRow
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
				case "until":
					r.Until = &v
				}
			}
			bounds = append(bounds, r)
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
	evLo, evHi, evAny := lo, hi, any
	near := func(t int64) bool { return !evAny || (t >= evLo-nearEvents && t <= evHi+nearEvents) }
	for _, r := range bounds {
		for _, b := range []struct {
			v    **int64
			name string
		}{{&r.Since, "since"}, {&r.Until, "until"}} {
			switch {
			case *b.v == nil:
			case near(**b.v):
				see(**b.v)
			default:
				text, _ := ceilingText(strconv.FormatInt(**b.v, 10))
				r.Beyond = strings.TrimSpace(r.Beyond + " " + b.name + " " + text)
				*b.v = nil // drawn as an open end
			}
		}
	}
	if any {
		out.Axis = &[2]int64{lo - 1, hi + 1}
	}
}
