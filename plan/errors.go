package plan

import (
	"fmt"

	"tierfetch/config"
)

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

// InputError is a bad choice or value in the plan's input: its Field is
// the Input, Files, BrokerInput or Env field at fault (a command renames it
// to the flag that sets it).
type InputError = config.Error

// inputErr is the *InputError "{field}: " and the text of format and args.
func inputErr(field, format string, args ...any) error {
	return config.Errorf(field, "{"+field+"}: "+format, args...)
}
