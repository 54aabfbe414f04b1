package config

import (
	"errors"
	"fmt"
	"strings"
)

// Error says what is wrong with one field of a Config (as etcd raft's
// Config.validate does). Its text names fields, its own and others, as
// {Field}: Error prints them by their field names, Text by the names a
// caller gives them (a command's flags), so that a package's message can
// say "{Seeds}: at most 1000000 seeds" and its user read "--seeds: ...".
type Error struct {
	// Field is the field at fault, as its Config spells it.
	Field  string
	format string
	args   []any
}

// Errorf returns an *Error for field with the text of format and args;
// format names fields as {Field} (args are values and are not read for
// names).
func Errorf(field, format string, args ...any) error {
	return &Error{Field: field, format: format, args: args}
}

// Error is the text with every {Field} by its field name.
func (e *Error) Error() string {
	return e.Text(func(field string) string { return field })
}

// Text is the text with every {Field} as name(Field); a field name gives
// "" for stays as written, braces and all. An error among the arguments
// that holds an *Error is named by name too.
func (e *Error) Text(name func(field string) string) string {
	var b strings.Builder
	rest := e.format
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			break
		}
		field := rest[open+1 : open+end]
		b.WriteString(rest[:open])
		if n := name(field); n != "" && isField(field) {
			b.WriteString(strings.ReplaceAll(n, "%", "%%"))
		} else {
			b.WriteString(rest[open : open+end+1])
		}
		rest = rest[open+end+1:]
	}
	b.WriteString(rest)
	args := make([]any, len(e.args))
	for i, a := range e.args {
		args[i] = a
		if err, ok := a.(error); ok && err != nil {
			args[i] = Rename(err, name).Error() // an *Error inside names its fields the same way
		}
	}
	return fmt.Sprintf(b.String(), args...)
}

// isField reports whether s can be a Go field name: a letter, then letters
// and digits.
func isField(s string) bool {
	if s == "" || !(s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Rename returns err with its *Error (if it holds one) named by name: the
// text err prints with the *Error's part as Text(name). The result still
// unwraps to err.
func Rename(err error, name func(field string) string) error {
	var e *Error
	if err == nil || !errors.As(err, &e) {
		return err
	}
	return &renamed{text: strings.Replace(err.Error(), e.Error(), e.Text(name), 1), err: err}
}

// renamed is an error whose *Error part a caller renamed.
type renamed struct {
	text string
	err  error
}

func (r *renamed) Error() string { return r.text }
func (r *renamed) Unwrap() error { return r.err }
