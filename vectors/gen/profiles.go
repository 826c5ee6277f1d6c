package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// ProfilesFileName is the generated profiles' path under vectors/.
const ProfilesFileName = "profiles.json"

// Profile is what one kind of client implements: a runner compares only
// what such a client can produce and skips the rest, saying why.
type Profile struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Kinds are the vector kinds the profile runs; the others are skipped.
	Kinds []string `json:"kinds"`
	// Lacks are capabilities the client does not have: a vector whose
	// needs member names one is skipped.
	Lacks []string `json:"lacks,omitempty"`
	// Ignore lists, per kind, the output members not compared: paths in
	// the vocabulary's form (names separated by dots, [] for every element
	// of an array), removed from the expected output and from the
	// client's answer alike.
	Ignore map[string][]string `json:"ignore,omitempty"`
}

// ProfilesDoc is the committed vectors/profiles.json.
type ProfilesDoc struct {
	Format      int    `json:"format"`
	Description string `json:"description"`
	// Default is the profile a runner uses when given none.
	Default      string       `json:"default"`
	Capabilities []Capability `json:"capabilities"`
	// Unordered lists, per kind, the arrays whose order NIP-RS does not
	// fix: a runner compares them as multisets.
	Unordered map[string][]string `json:"unordered"`
	Profiles  []Profile           `json:"profiles"`
}

// Profile names.
const (
	ProfileFull           = "full"
	ProfileLegacyDecoder  = "legacy-decoder"
	ProfileJSONParse      = "json-parse"
	ProfileCanonicalStore = "canonical-store"
)

func kindNames() []string {
	var out []string
	for _, k := range Kinds() {
		out = append(out, k.Name)
	}
	return out
}

func capabilityNames() []string {
	var out []string
	for _, c := range Capabilities() {
		out = append(out, c.Name)
	}
	return out
}

// Profiles lists every profile, the default first.
func Profiles() []Profile {
	return []Profile{
		{Name: ProfileFull, Description: "everything: every kind, every member of every output, the raw registers of register scripts included",
			Kinds: kindNames()},
		{Name: ProfileLegacyDecoder, Description: "a blob decoder without the manual-unread override layer: codec vectors compare outcome, client_id and the kept entries only, and those carrying override keys are skipped; events vectors run; every kind of the override layer (register, slots, traces, load, history) is skipped",
			Kinds: []string{"codec", "events"}, Lacks: []string{CapOverrideLayer},
			Ignore: map[string][]string{"codec": {"reason", "entry_count", "duplicates", "dropped"}}},
		{Name: ProfileJSONParse, Description: "a client reading plaintexts with a JSON parser that keeps one value per member name and reads numbers by value (JSON.parse): vectors whose input repeats a member name or spells a number other than as a plain integer are skipped",
			Kinds: kindNames(), Lacks: []string{CapDuplicateKeys, CapNumberLiterals}},
		{Name: ProfileCanonicalStore, Description: "a client that stores registers canonically (compacting on receipt, never storing a frontier of 0): register scripts compare observable state only (each context's effective frontier and liveness, the canonical candidate blob, the re-publish decision, each action's result), not the raw registers",
			Kinds: kindNames(), Ignore: map[string][]string{"register": {"after.[].registers"}}},
	}
}

// unordered is, per kind, the arrays compared as multisets: the spec
// lists dropped keys, duplicates and evictions as sets; the generator
// writes them sorted only so that the files are deterministic.
func unordered() map[string][]string {
	return map[string][]string{
		"codec": {"duplicates", "dropped"},
		"slots": {"evicted"},
	}
}

// profilesDoc is the committed document.
func profilesDoc() ProfilesDoc {
	return ProfilesDoc{
		Format:       FormatVersion,
		Description:  "Client profiles of the conformance vectors: what a client implements, hence which vectors a runner runs and which output members it compares. A vector whose kind a profile does not run, or whose needs member names a capability the profile lacks, is skipped with that reason; members a profile ignores are removed from both sides before comparing; arrays listed in unordered compare as multisets. Profiles combine (legacy-decoder,json-parse): kinds intersect, lacks and ignores add up.",
		Default:      ProfileFull,
		Capabilities: Capabilities(),
		Unordered:    unordered(),
		Profiles:     Profiles(),
	}
}

// ProfilesJSON is the committed bytes of vectors/profiles.json.
func ProfilesJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(profilesDoc()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// profilesMarkdown is the vocabulary's section on profiles, capabilities
// and unordered arrays, from the same definitions as profiles.json.
func profilesMarkdown() string {
	var b strings.Builder
	b.WriteString("\n## Client profiles\n\n")
	b.WriteString(wrapText("A runner takes a profile (`"+ProfilesFileName+"`; the node runner's `--profile NAME` or `NIPRS_PROFILE`, default `"+ProfileFull+"`): it runs the kinds the profile names, skips a vector whose `needs` lists a capability the profile lacks, and removes the members the profile ignores from both the expected output and the answer before comparing. Profiles combine with a comma: kinds intersect, lacks and ignores add up.", "") + "\n\n")
	b.WriteString("| profile | kinds run | skips vectors needing | not compared | what it is |\n|---|---|---|---|---|\n")
	for _, p := range Profiles() {
		var ign []string
		kinds := make([]string, 0, len(p.Ignore))
		for k := range p.Ignore {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		for _, k := range kinds {
			for _, path := range p.Ignore[k] {
				ign = append(ign, "`"+k+": "+path+"`")
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", p.Name, codeList(p.Kinds), codeList(p.Lacks), orDash(strings.Join(ign, ", ")), p.Description)
	}
	b.WriteString("\n`needs` (a vector's capability tags, from its input alone)\n\n| capability | meaning |\n|---|---|\n")
	for _, c := range Capabilities() {
		fmt.Fprintf(&b, "| `%s` | %s |\n", c.Name, c.Meaning)
	}
	b.WriteString("\nArrays compared as multisets (their order is not fixed by NIP-RS; the files write them sorted only to be deterministic)\n\n")
	u := unordered()
	kinds := make([]string, 0, len(u))
	for k := range u {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Fprintf(&b, "- %s: %s\n", k, codeList(u[k]))
	}
	return b.String()
}

func codeList(vs []string) string {
	if len(vs) == 0 {
		return "-"
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = "`" + v + "`"
	}
	return strings.Join(out, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
