package plan

import "fmt"

// ToolError is bad tool output: the file, the line (0 when the problem is
// the file as a whole) and what was expected there.
type ToolError struct {
	File string
	Line int
	Msg  string
}

// Error returns "FILE:LINE: MSG", or "FILE: MSG" without a line.
func (e *ToolError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

func toolErr(file string, line int, format string, args ...any) error {
	return &ToolError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// InputError is a bad choice or value in the plan's input (a flag, in the
// CLI): Field names it.
type InputError struct {
	Field string
	Msg   string
}

// Error returns "FIELD: MSG".
func (e *InputError) Error() string { return e.Field + ": " + e.Msg }

func inputErr(field, format string, args ...any) error {
	return &InputError{Field: field, Msg: fmt.Sprintf(format, args...)}
}
