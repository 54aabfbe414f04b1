package outfile

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// TerminalSafe passes what a command prints to W with the characters that
// would let a name from a file or a flag act on the terminal escaped: C0 and
// C1 control characters but newline and tab (ESC sequences clear or
// recolour the screen), DEL, bytes that are not UTF-8, and the
// bidirectional formatting characters (U+202E shows "fdp.exe" for
// "exe.pdf"). A carriage return passes only at the start of a write, where
// the progress line puts it. Escapes read as Go and JSON do: \x1b, \u202e
// (in a JSON string, \u202e is the same character, so JSON stays valid and
// equal). Everything else, and every other printable character, passes
// unchanged.
type TerminalSafe struct {
	W    io.Writer
	pend []byte // an incomplete UTF-8 sequence at the end of the last write
}

// Write escapes p (see TerminalSafe) and writes it; it reports len(p) when
// the write succeeded.
func (t *TerminalSafe) Write(p []byte) (int, error) {
	n := len(p)
	if len(t.pend) > 0 {
		p = append(t.pend, p...)
		t.pend = nil
	} else if plain(p) {
		_, err := t.W.Write(p)
		return n, err
	}
	var out []byte
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\n' || c == '\t' || c == '\r' && i == 0 || c >= 0x20 && c < 0x7f:
			out = append(out, c)
			i++
			continue
		case c < 0x80:
			out = fmt.Appendf(out, `\x%02x`, c)
			i++
			continue
		case !utf8.FullRune(p[i:]):
			t.pend = append([]byte(nil), p[i:]...)
			i = len(p)
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = fmt.Appendf(out, `\x%02x`, c)
		case unsafeRune(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	_, err := t.W.Write(out)
	return n, err
}

// Target is the writer t writes to (cliutil.IsTerminal looks through it).
func (t *TerminalSafe) Target() any { return t.W }

// Flush writes an incomplete UTF-8 sequence held from the last write,
// escaped: the output ended in it.
func (t *TerminalSafe) Flush() error {
	if len(t.pend) == 0 {
		return nil
	}
	var out []byte
	for _, c := range t.pend {
		out = fmt.Appendf(out, `\x%02x`, c)
	}
	t.pend = nil
	_, err := t.W.Write(out)
	return err
}

// plain reports whether p needs no escape: printable ASCII, newlines and
// tabs, and a carriage return at its start.
func plain(p []byte) bool {
	for i, c := range p {
		if (c < 0x20 || c >= 0x7f) && c != '\n' && c != '\t' && !(c == '\r' && i == 0) {
			return false
		}
	}
	return true
}

// unsafeRune reports whether r is a C1 control or a bidirectional
// formatting character.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls (CSI is U+009B)
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // ALM, LRM, RLM
		return true
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	}
	return false
}
