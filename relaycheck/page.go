package relaycheck

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"time"

	"github.com/nip-rs/harness/model"
)

//go:embed page.html.tmpl
var pageTemplate string

var pageTmpl = template.Must(template.New("page").Funcs(template.FuncMap{"esc": printable}).Parse(pageTemplate))

// pageCheck is one check as the page shows it: the report's, with what
// the catalogue says it does.
type pageCheck struct {
	Check
	About  string
	Trials string
}

type pageRequirement struct {
	RequirementVerdict
	Gated  bool
	Trials string
	// Remedy is what the relay must do, shown when it violates.
	Remedy string
}

type pageData struct {
	Relay, Verdict, Version, Date string
	Gate, GateWhy                 string
	// GateTwo and GateTwoWhy are the decision for a client loading with
	// two passes and the RecommendedPassGap.
	GateTwo, GateTwoWhy string
	Requirements        []pageRequirement
	Violated            bool // some requirement violated: the page says what to change
	Checks              []pageCheck
	Capacity            string
	Cleanup             string
	TrialCap            int
}

// Page is the report as one self-contained HTML page (no script, no
// external resource): the verdict and what the evidence gate would decide
// from it at the top, the matrix of requirements, then every check with
// what it does and its evidence. Every relay-supplied string is escaped
// twice over: printable, then the template's HTML escaping.
func Page(rep Report) []byte {
	d := pageData{Relay: rep.Relay, Verdict: string(rep.Verdict()), Version: rep.ProbeVersion,
		Date: rep.Date.UTC().Format(time.DateOnly), Cleanup: rep.Cleanup, TrialCap: rep.BarrierTrials}
	d.Gate, d.GateWhy = gateFor(rep)
	d.GateTwo, d.GateTwoWhy = gateTwoPass(rep)
	for _, rv := range rep.Requirements {
		pr := pageRequirement{RequirementVerdict: rv, Trials: trialsText(rv)}
		if rv.Verdict == Violates {
			pr.Remedy, d.Violated = Remedies[rv.Requirement], true
		}
		for _, lr := range LoadRequirements {
			pr.Gated = pr.Gated || lr == rv.Requirement
		}
		d.Requirements = append(d.Requirements, pr)
	}
	about := map[string]string{}
	for _, c := range Checks {
		about[c.ID] = c.About
	}
	for _, c := range rep.Checks {
		t := fmt.Sprint(c.Trials)
		if c.Exercised > 0 {
			t += fmt.Sprintf(", %d exercised", c.Exercised)
		}
		if c.RateBound > 0 {
			t += fmt.Sprintf(", rate ≤ %.4f at %.0f%%", c.RateBound, 100*c.Confidence)
		}
		if c.Chance > 0 {
			t += fmt.Sprintf(", chance pass %.2g", c.Chance)
		}
		d.Checks = append(d.Checks, pageCheck{Check: c, About: about[c.ID], Trials: t})
	}
	switch {
	case rep.SubCapacity > 0 && rep.SubEvicts:
		d.Capacity = fmt.Sprintf("%d subscriptions per connection; the next silently evicts the oldest", rep.SubCapacity)
	case rep.SubCapacity > 0:
		d.Capacity = fmt.Sprintf("at least %d subscriptions per connection, none silently evicted", rep.SubCapacity)
	}
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, d); err != nil {
		// The template is the package's own and its data plain strings
		// and numbers: a failure is a defect, shown on the page.
		return []byte("<!doctype html><title>relaycheck</title><p>page error: " + template.HTMLEscapeString(err.Error()))
	}
	return b.Bytes()
}

// gateFor is what the evidence gate decides from this report alone, in
// the words of the package doc, for a client loading with one pass.
func gateFor(rep Report) (string, string) { return gateWith(rep, GateOptions{Now: rep.Date}) }

// gateTwoPass is gateFor for a client loading with two passes and the
// RecommendedPassGap.
func gateTwoPass(rep Report) (string, string) {
	return gateWith(rep, GateOptions{Now: rep.Date, Passes: 2, PassGap: RecommendedPassGap})
}

func gateWith(rep Report, o GateOptions) (string, string) {
	st := NewMemStore()
	if err := st.Put(FromReport(rep)); err != nil {
		return "unknown", err.Error()
	}
	d, err := GateWith(st, rep.Relay, model.LoadConfig{}, o)
	switch {
	case err != nil:
		return "unknown", err.Error()
	case d.Config.KnownNonConforming:
		return "refused", "a load requirement is violated: no load is attempted; the verdict is cannot-prove-complete (" + d.Config.Evidence + ")"
	case d.Config.Unproven != "":
		return "unproven", "the client loads, but the load ends cannot-prove-complete instead of complete: " + d.Config.Unproven
	}
	if d.Reason != "" {
		return "admitted", "every requirement the load rests on conforms: a load that runs to its end may say complete; " + d.Reason
	}
	return "admitted", "every load requirement conforms: a load that runs to its end may say complete"
}
