package comparison

import (
	"html/template"
	"io"
)

// WriteHTML writes the table as one self-contained page: no script, no
// request to any network; a violated cell links to its witness's text.
func (t *Table) WriteHTML(w io.Writer, title string) error {
	type cell struct {
		Text, Class, Anchor string
	}
	type row struct {
		Label, Doc string
		Cells      []cell
	}
	type wit struct {
		Anchor, Head, Text string
	}
	var rows []row
	var wits []wit
	for _, r := range t.Rows {
		hr := row{Label: r.Label, Doc: r.Doc}
		for i, c := range r.Cells {
			hc := cell{Text: c.Text(), Class: map[string]string{Holds: "ok", Violated: "bad", NA: "na", NotChecked: "na", Unknown: "unk"}[c.Verdict]}
			if c.Verdict == NA {
				hc.Text = "n/a: " + c.Reason
			}
			if c.Verdict == Violated && c.Witness != nil {
				hc.Anchor = fileSafe(r.Label + "-" + t.Columns[i].Header())
				text := c.Witness.Text
				if text == "" {
					text = string(c.Witness.JSON())
				}
				wits = append(wits, wit{Anchor: hc.Anchor, Head: r.Label + " " + t.Columns[i].Header(), Text: text})
			}
			hr.Cells = append(hr.Cells, hc)
		}
		rows = append(rows, hr)
	}
	var heads []string
	for _, c := range t.Columns {
		heads = append(heads, c.Header())
	}
	return page.Execute(w, map[string]any{"Title": title, "Heads": heads, "Rows": rows, "Witnesses": wits,
		"Reasons": t.reasons(), "Violations": t.violations()})
}

var page = template.Must(template.New("compare").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em}
table{border-collapse:collapse}
td,th{border:1px solid #bbb;padding:.3em .6em;text-align:left;vertical-align:top}
td.ok{background:#e6f4e6}td.bad{background:#f8d7d7}td.na{color:#666;font-size:.85em;max-width:16em}td.unk{background:#fff3cd}
pre{background:#f4f4f4;padding:.6em;overflow-x:auto}
</style></head><body>
<h1>{{.Title}}</h1>
<table><tr><th>row</th>{{range .Heads}}<th>{{.}}</th>{{end}}<th>invariant</th></tr>
{{range .Rows}}<tr><th>{{.Label}}</th>{{range .Cells}}<td class="{{.Class}}">{{if .Anchor}}<a href="#{{.Anchor}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</td>{{end}}<td>{{.Doc}}</td></tr>
{{end}}</table>
{{if .Reasons}}<h2>Not applicable</h2><ul>{{range .Reasons}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Violations}}<h2>Violated</h2><ul>{{range .Violations}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{range .Witnesses}}<h3 id="{{.Anchor}}">{{.Head}}</h3><pre>{{.Text}}</pre>
{{end}}</body></html>
`))
