package mbt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// TestValidateFile validates log files as the explorer's -validate does:
// an explained log says how many records and by which search; a record
// no behaviour allows is named by its line, with what the model allows
// and the log up to it, escaped; a malformed log, a missing file and a
// bad universe or rule set name are errors naming what is wrong.
func TestValidateFile(t *testing.T) {
	dir := t.TempDir()
	const init = `{"step": 0, "init": {"devices": ["d0", "d1"]}}` + "\n"
	const act = `{"step": 1, "device": "d0", "action": {"action": "advance", "ctx": "c0", "value": 10}, "state": {"c0": {"effective": 10, "live": false}}}` + "\n"
	write := func(name, log string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cat := exhaustive.NewCatalog()
	for _, c := range []struct {
		name, log, universe string
		explained           bool
		want                []string
	}{
		{"good", init + act + `{"step": 2, "device": "d1", "received": {"client_id": "d0", "contexts": {"c0": 10}}, "state": {"c0": {"effective": 10, "live": false}}}` + "\n",
			"reference", true, []string{"good: explained in universe validate-pair: 2 records, found by the log-guided search after "}},
		{"bad", init + act + `{"step": 2, "device": "d1", "received": {"client_id": "d0", "contexts": {"c0": 20}}}` + "\n",
			"validate-pair", false, []string{"bad: unexplained in universe validate-pair at line 3 (step 2, d1, received)",
				`  the log says:     {"client_id":"d0","contexts":{"c0":20}}`, `  the model allows: d0->d1 {"c0":10}`, "  witness: the log up to that record (3 lines)"}},
		{"escaped", init + `{"step": 1, "device": "d0", "action": {"action": "advance", "ctx": "c0\u001b[31m", "value": 10}}` + "\n",
			"reference", false, []string{`\x1b[31m`}},
	} {
		v, err := ValidateFile(cat, write(c.name, c.log), c.universe, "proposed")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var b strings.Builder
		v.WriteText(&b)
		out := strings.ReplaceAll(b.String(), dir+string(filepath.Separator), "")
		if v.Explained() != c.explained || strings.ContainsRune(out, 0x1b) {
			t.Errorf("%s: explained %v, want %v:\n%s", c.name, v.Explained(), c.explained, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.name, w, out)
			}
		}
	}
	good := filepath.Join(dir, "good")
	for _, c := range []struct{ path, universe, rules, says string }{
		{write("malformed", init+act+"{\"step\": 2\n"), "reference", "proposed", "log line 3"},
		{filepath.Join(dir, "nonesuch"), "reference", "proposed", "nonesuch"},
		{good, "nonesuch", "proposed", "nonesuch"},
		{good, "reference", "nonesuch", "nonesuch"},
	} {
		if v, err := ValidateFile(cat, c.path, c.universe, c.rules); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s in %s under %s: %+v, %v; want an error saying %q", c.path, c.universe, c.rules, v, err, c.says)
		}
	}
}

// TestCheckFile: a trace written by WriteTraces checks state by state
// against the model; the same file with one observed value changed
// diverges at a step; a file that is not a trace, or no file, is an error
// naming the path and not a divergence.
func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	trs := simTraces(t, 1, 12, 9)
	if err := WriteTraces(dir, 0, model.ClearWins, trs); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "walk-0000-clear.itf.json")
	cat := exhaustive.NewCatalog()
	if n, err := CheckFile(cat, p); err != nil || n != len(trs[0].States) {
		t.Fatalf("as written: %d states, %v; want %d", n, err, len(trs[0].States))
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.LastIndex(s, `"effective":`)
	if i < 0 {
		t.Fatal("the walk observed no frontier to alter")
	}
	i += len(`"effective":`)
	altered := filepath.Join(dir, "altered.itf.json")
	if err := os.WriteFile(altered, []byte(s[:i]+"1"+s[i:]), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CheckFile(cat, altered); err == nil {
		t.Error("altered: no divergence")
	} else if d, ok := IsDivergence(err); !ok || d.Step < 1 {
		t.Errorf("altered: %v, want a divergence at a step", err)
	}
	garbage := filepath.Join(dir, "garbage.itf.json")
	if err := os.WriteFile(garbage, []byte(`{"#meta": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{garbage, filepath.Join(dir, "nonesuch")} {
		_, err := CheckFile(cat, bad)
		if _, div := IsDivergence(err); err == nil || div || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: %v, want an error naming the file", bad, err)
		}
	}
}
