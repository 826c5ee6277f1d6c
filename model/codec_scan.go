package model

import (
	"fmt"
	"unicode/utf8"
)

// The blob codec reads plaintext with its own small JSON scanner rather than
// encoding/json, for three reasons the Content Validation rules force:
// duplicate keys must resolve last-wins in wire order (a Go map hides the
// order), number literals must reach Rules.SanitizeValue verbatim (so 1.0
// and 1e3 are visible as such), and invalid UTF-8 must be detected rather
// than silently replaced with U+FFFD. The scanner never recurses deeper than
// MaxNesting and reads at most MaxPlaintextBytes, so hostile input costs
// bounded time and memory.

const (
	// MaxPlaintextBytes is NIP-44's largest plaintext; anything longer cannot
	// have come out of a decryption and is rejected before scanning.
	MaxPlaintextBytes = 65535
	// MaxNesting bounds object/array nesting, counting the top-level object
	// as 1. Deeper input is rejected as a whole rather than recursed into.
	MaxNesting = 64
)

// jsonKind is the type of a JSON value.
type jsonKind uint8

const (
	kindNull jsonKind = iota
	kindBool
	kindNumber
	kindString
	kindObject
	kindArray
)

func (k jsonKind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an object", "an array"}[k]
}

var errTooDeep = fmt.Errorf("nesting deeper than %d", MaxNesting)

// scanner reads one JSON text from data. It reports syntax errors with their
// byte offset; it never panics on any input. data is a string so that keys
// without escapes and number literals are substrings of it rather than
// copies: a kept key shares the memory of the plaintext it came from (at
// most MaxPlaintextBytes).
type scanner struct {
	data string
	pos  int
}

func (s *scanner) errorf(format string, args ...any) error {
	return fmt.Errorf("byte %d: "+format, append([]any{s.pos}, args...)...)
}

func (s *scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next byte, or 0 at the end of input (0 never starts a
// JSON value, so callers treat it as a syntax error).
func (s *scanner) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

func (s *scanner) expect(c byte) error {
	s.ws()
	if s.peek() != c {
		if s.pos >= len(s.data) {
			return s.errorf("unexpected end of input, want %q", c)
		}
		return s.errorf("unexpected %q, want %q", s.data[s.pos], c)
	}
	s.pos++
	return nil
}

// str reads a string at the opening quote and returns its decoded value and
// whether it is valid UTF-8 (raw invalid bytes or an unpaired \u surrogate
// escape make it invalid; an unpaired surrogate keeps its own code point,
// see appendSurrogate).
func (s *scanner) str() (string, bool, error) {
	if s.peek() != '"' {
		return "", false, s.errorf("want a string")
	}
	s.pos++
	start := s.pos
	var buf []byte // nil until the first escape: the common case copies once
	surrogateOK := true
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			var out string
			if buf == nil {
				out = s.data[start:s.pos]
			} else {
				out = string(append(buf, s.data[start:s.pos]...))
			}
			s.pos++
			return out, surrogateOK && utf8.ValidString(out), nil
		case c == '\\':
			buf = append(buf, s.data[start:s.pos]...)
			var ok bool
			var err error
			if buf, ok, err = s.escape(buf); err != nil {
				return "", false, err
			}
			surrogateOK = surrogateOK && ok
			start = s.pos
		case c < 0x20:
			return "", false, s.errorf("control character 0x%02x in string", c)
		default:
			s.pos++
		}
	}
	return "", false, s.errorf("unterminated string")
}

// escape decodes one backslash escape at s.pos, appending it to buf. ok is
// false for an unpaired surrogate.
func (s *scanner) escape(buf []byte) ([]byte, bool, error) {
	if s.pos+1 >= len(s.data) {
		return buf, false, s.errorf("unterminated escape")
	}
	c := s.data[s.pos+1]
	s.pos += 2
	switch c {
	case '"', '\\', '/':
		return append(buf, c), true, nil
	case 'b':
		return append(buf, '\b'), true, nil
	case 'f':
		return append(buf, '\f'), true, nil
	case 'n':
		return append(buf, '\n'), true, nil
	case 'r':
		return append(buf, '\r'), true, nil
	case 't':
		return append(buf, '\t'), true, nil
	case 'u':
	default:
		s.pos--
		return buf, false, s.errorf("invalid escape \\%c", c)
	}
	r, err := s.hex4()
	if err != nil {
		return buf, false, err
	}
	switch {
	case r >= 0xD800 && r < 0xDC00:
		// A high surrogate must be followed by \u and a low surrogate.
		if s.pos+1 < len(s.data) && s.data[s.pos] == '\\' && s.data[s.pos+1] == 'u' {
			save := s.pos
			s.pos += 2
			lo, err := s.hex4()
			if err != nil {
				return buf, false, err
			}
			if lo >= 0xDC00 && lo < 0xE000 {
				return utf8.AppendRune(buf, 0x10000+(r-0xD800)<<10+(lo-0xDC00)), true, nil
			}
			s.pos = save // the next escape stands on its own
		}
		return appendSurrogate(buf, r), false, nil
	case r >= 0xDC00 && r < 0xE000:
		return appendSurrogate(buf, r), false, nil
	}
	return utf8.AppendRune(buf, r), true, nil
}

// appendSurrogate appends a lone surrogate code point in the three-byte
// form UTF-8 would give it if it allowed surrogates. The bytes are invalid
// UTF-8, so the key is still dropped, but they keep the key apart from
// every other: \ud800, \udbff and a real U+FFFD are three different JSON
// strings, and an override key ending in one of them names a different
// <ctx> from one ending in another (Content Validation groups siblings by
// suffix). Decoding each to U+FFFD would merge them into one key and one
// group.
func appendSurrogate(buf []byte, r rune) []byte {
	return append(buf, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
}

func (s *scanner) hex4() (rune, error) {
	if s.pos+4 > len(s.data) {
		return 0, s.errorf("short \\u escape")
	}
	var r rune
	for i := s.pos; i < s.pos+4; i++ {
		c, d := s.data[i], byte(0)
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, s.errorf("invalid hex digit %q in \\u escape", c)
		}
		r = r<<4 | rune(d)
	}
	s.pos += 4
	return r, nil
}

// number reads a JSON number and returns its literal text unchanged.
func (s *scanner) number() (string, error) {
	start := s.pos
	if s.peek() == '-' {
		s.pos++
	}
	switch c := s.peek(); {
	case c == '0':
		s.pos++
	case c >= '1' && c <= '9':
		s.digits()
	default:
		return "", s.errorf("invalid number")
	}
	if s.peek() == '.' {
		s.pos++
		if !s.digits() {
			return "", s.errorf("invalid number: no digits after '.'")
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.pos++
		if c := s.peek(); c == '+' || c == '-' {
			s.pos++
		}
		if !s.digits() {
			return "", s.errorf("invalid number: no digits in exponent")
		}
	}
	return s.data[start:s.pos], nil
}

func (s *scanner) digits() bool {
	start := s.pos
	for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
		s.pos++
	}
	return s.pos > start
}

func (s *scanner) word(w string) error {
	if len(s.data)-s.pos < len(w) || s.data[s.pos:s.pos+len(w)] != w {
		return s.errorf("invalid literal, want %s", w)
	}
	s.pos += len(w)
	return nil
}

// skip reads any value at depth (the nesting level of the container holding
// it) and returns its kind and, for a number, its literal.
func (s *scanner) skip(depth int) (jsonKind, string, error) {
	s.ws()
	switch c := s.peek(); {
	case c == '"':
		_, _, err := s.str()
		return kindString, "", err
	case c == '-' || c >= '0' && c <= '9':
		lit, err := s.number()
		return kindNumber, lit, err
	case c == 't':
		return kindBool, "", s.word("true")
	case c == 'f':
		return kindBool, "", s.word("false")
	case c == 'n':
		return kindNull, "", s.word("null")
	case c == '{':
		return kindObject, "", s.members(depth+1, func(string, bool) error {
			_, _, err := s.skip(depth + 1)
			return err
		})
	case c == '[':
		return kindArray, "", s.elements(depth + 1)
	case c == 0 && s.pos >= len(s.data):
		return 0, "", s.errorf("unexpected end of input")
	default:
		return 0, "", s.errorf("unexpected %q", c)
	}
}

// members reads an object at '{' whose own nesting level is depth, calling
// value for each member after its key and colon have been read; value must
// consume the member's value.
func (s *scanner) members(depth int, value func(key string, utf8OK bool) error) error {
	if depth > MaxNesting {
		return s.errorf("%w", errTooDeep)
	}
	s.pos++ // '{'
	s.ws()
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		s.ws()
		key, ok, err := s.str()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		s.ws()
		if err := value(key, ok); err != nil {
			return err
		}
		s.ws()
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.errorf("want ',' or '}' in object")
		}
	}
}

func (s *scanner) elements(depth int) error {
	if depth > MaxNesting {
		return s.errorf("%w", errTooDeep)
	}
	s.pos++ // '['
	s.ws()
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		if _, _, err := s.skip(depth); err != nil {
			return err
		}
		s.ws()
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.errorf("want ',' or ']' in array")
		}
	}
}

// end succeeds when only whitespace remains.
func (s *scanner) end() error {
	s.ws()
	if s.pos != len(s.data) {
		return s.errorf("data after the JSON value")
	}
	return nil
}
