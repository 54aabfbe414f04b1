package config

import (
	"fmt"
	"io"
)

// Names spells a Config field as its user knows it: a command gives the
// name of the flag that sets it ("Seeds" -> "--seeds"). A package's text
// that names a setting or quotes a command line writes the field as
// {Field}, as an Error's does ("replay: simrun run {Scenario} %s {Seed} %d"),
// and prints it through the Names its caller gave, so that only the
// command knows its flags. The nil Names spells each field by its name.
type Names func(field string) string

// Sprintf is fmt.Sprintf with every {Field} of format spelled by n; an
// error among args that holds an *Error is spelled by n too.
func (n Names) Sprintf(format string, args ...any) string {
	return (&Error{format: format, args: args}).Text(n.name)
}

// Fprintf writes n.Sprintf(format, args...) to w.
func (n Names) Fprintf(w io.Writer, format string, args ...any) (int, error) {
	return fmt.Fprint(w, n.Sprintf(format, args...))
}

// Of is field spelled by n.
func (n Names) Of(field string) string { return n.Sprintf("{" + field + "}") }

// name is n(field), the field's own name for the nil Names.
func (n Names) name(field string) string {
	if n == nil {
		return field
	}
	return n(field)
}
