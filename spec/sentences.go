package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode"
)

// Sentence is one normative sentence of the spec text.
type Sentence struct {
	// Section is the heading the sentence stands under.
	Section string
	// Fingerprint identifies the normalised sentence (Fingerprint).
	Fingerprint string
	// Keyword is the strongest requirement word it holds: "MUST NOT",
	// "MUST", "SHOULD NOT" or "SHOULD".
	Keyword string
	// Text is the sentence as it stands, for messages only; it is never
	// stored in this repository.
	Text string
	// Line is the 1-based line of the spec text it is on.
	Line int
}

// Mandatory reports whether the sentence holds a MUST or MUST NOT: every
// such sentence must have a requirement.
func (s Sentence) Mandatory() bool { return strings.HasPrefix(s.Keyword, "MUST") }

// Normalise reduces a sentence to the form its fingerprint is taken of:
// bullets and list numbers gone, letters lowered, every run of
// non-alphanumeric characters one space. An edit of punctuation or
// spacing keeps the fingerprint; an edit of any word changes it.
func Normalise(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "•-* ")
	s = listNumber.ReplaceAllString(s, "")
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
			continue
		}
		space = true
	}
	return b.String()
}

var listNumber = regexp.MustCompile(`^\d+\.\s+`)

// Fingerprint is the first 12 hex digits of the SHA-256 of the normalised
// sentence: enough to tell ~150 sentences apart and to notice an edit,
// without the repository holding the spec's wording.
func Fingerprint(sentence string) string {
	sum := sha256.Sum256([]byte(Normalise(sentence)))
	return hex.EncodeToString(sum[:6])
}

// keywords in the order Keyword prefers them.
var keywords = []string{"MUST NOT", "MUST", "SHOULD NOT", "SHOULD"}

var keywordRE = regexp.MustCompile(`\b(MUST|SHOULD)\b`)

// sentenceEnd splits a paragraph after '.', '!' or '?' followed by space
// and an upper-case letter, a digit or an opening parenthesis or quote.
var sentenceEnd = regexp.MustCompile(`[.!?]\s+[A-Z0-9("“]`)

// splitSentences cuts one paragraph into sentences.
func splitSentences(p string) []string {
	var out []string
	for {
		loc := sentenceEnd.FindStringIndex(p)
		if loc == nil {
			break
		}
		cut := loc[0] + 1
		if abbreviation(p[:cut]) {
			// "e.g. X" and "i.e. X" do not end a sentence; look further.
			rest := splitSentences(p[loc[1]-1:])
			if len(rest) == 0 {
				return append(out, p)
			}
			rest[0] = p[:loc[1]-1] + rest[0]
			return append(out, rest...)
		}
		out = append(out, strings.TrimSpace(p[:cut]))
		p = p[loc[1]-1:]
	}
	if p = strings.TrimSpace(p); p != "" {
		out = append(out, p)
	}
	return out
}

func abbreviation(head string) bool {
	for _, a := range []string{"e.g.", "i.e.", "etc.", "vs."} {
		if strings.HasSuffix(head, a) {
			return true
		}
	}
	return false
}

// isHeading reports whether a line, standing between blank lines, is a
// section heading of the plain-text spec: short, no sentence punctuation
// at its end, no code, no list bullet.
func isHeading(line string) bool {
	if line == "" || len(line) > 64 || strings.ContainsAny(line, "{}[]\"`=•:") {
		return false
	}
	if strings.HasSuffix(line, ".") || strings.HasSuffix(line, ",") || strings.HasSuffix(line, ";") {
		return false
	}
	r := []rune(line)[0]
	return unicode.IsUpper(r) || unicode.IsLower(r) && strings.Contains(line, " Tag")
}

// Parse returns every sentence of text holding MUST or SHOULD, in order,
// each with the heading it stands under.
func Parse(text string) []Sentence {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var out []Sentence
	section := ""
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		blankBefore := i == 0 || strings.TrimSpace(lines[i-1]) == ""
		blankAfter := i+1 == len(lines) || strings.TrimSpace(lines[i+1]) == ""
		if blankBefore && blankAfter && isHeading(line) {
			section = line
			continue
		}
		if !keywordRE.MatchString(line) {
			continue
		}
		for _, s := range splitSentences(line) {
			kw := keyword(s)
			if kw == "" {
				continue
			}
			out = append(out, Sentence{Section: section, Fingerprint: Fingerprint(s), Keyword: kw, Text: s, Line: i + 1})
		}
	}
	return out
}

// keywordREs match each of keywords as whole words, in the same order.
var keywordREs = func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(keywords))
	for i, k := range keywords {
		out[i] = regexp.MustCompile(`\b` + k + `\b`)
	}
	return out
}()

// keyword is the strongest requirement word of s, or "".
func keyword(s string) string {
	for i, re := range keywordREs {
		if re.MatchString(s) {
			return keywords[i]
		}
	}
	return ""
}

// DefaultPath is where the spec text stands relative to the
// repository root.
const DefaultPath = "../shared/seeds/NIP-RS.md"
