package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strconv"
	"sync"
	"syscall"
	"time"

	"tierfetch/config"
)

// DefaultMaxInputBytes bounds the size of a scenario file (--max-input-bytes
// raises it): 32 MiB holds a fixture of half a million segments, and parsing
// it takes a few times that in memory and well under a second.
const DefaultMaxInputBytes = 32 << 20

// MaxInputBytesLimit bounds --max-input-bytes: 4 GiB, so that the events a
// file can hold (under 200 million) leave room in int32 for their elections.
const MaxInputBytesLimit = 4 << 30

// ParseMaxInputBytes reads a size limit as --max-input-bytes takes it: a
// decimal number of bytes in 1..MaxInputBytesLimit, nothing else.
func ParseMaxInputBytes(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > MaxInputBytesLimit || s[0] == '+' {
		return 0, fmt.Errorf("want a size in bytes in 1..%d, got %q", int64(MaxInputBytesLimit), s)
	}
	return n, nil
}

// ReadLimited reads the file at path, at most maxBytes of it: a longer file
// (or an endless one, /dev/zero) is an error after reading maxBytes+1 bytes,
// naming --max-input-bytes.
func ReadLimited(path string, maxBytes int64) ([]byte, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, err // names the path already
	}
	defer f.Close()
	size := int64(0)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if st.Size() > maxBytes {
			return nil, tooBig(path, st.Size(), maxBytes)
		}
		size = st.Size()
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+1))
	n, err := buf.ReadFrom(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if n > maxBytes {
		return nil, tooBig(path, -1, maxBytes)
	}
	return buf.Bytes(), nil
}

// PipeWait is how long opening a named pipe as input waits for a writer
// to open it (one started beside the command, 'cat f > p & simrun ...
// p', may come a little later); then it is an error.
var PipeWait = 2 * time.Second

// OpenInput opens the input file at path for reading. A named pipe with no
// writer is an error after PipeWait, not a hang: a plain open of it waits
// for a writer for ever.
func OpenInput(path string) (*os.File, error) {
	if fi, err := os.Stat(path); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		return os.Open(path)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-time.After(PipeWait):
	}
	// Wake the waiting open with a writer of our own, closed at once (a
	// pipe that has a reader, the waiting open, takes a writer without
	// blocking), so that no goroutine is left waiting.
	for range 100 {
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		select {
		case o := <-done:
			if o.f != nil {
				o.f.Close()
			}
			return nil, fmt.Errorf("%s is a named pipe with no writer (none came in %v): start the writer first", path, PipeWait)
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil, fmt.Errorf("%s is a named pipe with no writer (none came in %v): start the writer first", path, PipeWait)
}

func tooBig(path string, size, maxBytes int64) error {
	if size < 0 {
		return config.Errorf("MaxInput", "%s: more than %d bytes, the input limit (raise it with {MaxInput})", path, maxBytes)
	}
	return config.Errorf("MaxInput", "%s: %d bytes, more than the input limit of %d (raise it with {MaxInput})", path, size, maxBytes)
}

// jsonSpace reports whether c is JSON whitespace.
func jsonSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(data []byte, i int) int {
	for i < len(data) && jsonSpace(data[i]) {
		i++
	}
	return i
}

// valueEnd returns the index just past the JSON value starting at data[i].
// data must be valid JSON (json.Valid): the scan only finds where the value
// ends, without copying or checking it.
func valueEnd(data []byte, i int) int {
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				i = stringEnd(data, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(data) && !jsonSpace(data[i]) && data[i] != ',' && data[i] != ']' && data[i] != '}' {
		i++
	}
	return i
}

// stringEnd returns the index just past the JSON string starting at data[i].
func stringEnd(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// splitObject splits the valid JSON object data into its members, in file
// order, without copying: each value is a slice of data.
func splitObject(data []byte) ([]member, error) {
	var ms []member
	i := skipSpace(data, 1)
	for i < len(data) && data[i] != '}' {
		end := stringEnd(data, i)
		raw := data[i:end]
		var key string
		if bytes.IndexByte(raw, '\\') < 0 {
			key = string(raw[1 : len(raw)-1])
		} else if err := json.Unmarshal(raw, &key); err != nil {
			return nil, err
		}
		i = skipSpace(data, end)
		i = skipSpace(data, i+1) // the colon
		vend := valueEnd(data, i)
		ms = append(ms, member{key, data[i:vend:vend]})
		i = skipSpace(data, vend)
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	return ms, nil
}

// splitArray splits the valid JSON array data into its elements without
// copying.
func splitArray(data []byte) []json.RawMessage {
	var out []json.RawMessage
	i := skipSpace(data, 1)
	for i < len(data) && data[i] != ']' {
		end := valueEnd(data, i)
		out = append(out, data[i:end:end])
		i = skipSpace(data, end)
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	return out
}

// arrayLen counts the elements of the valid JSON array data, as splitArray
// splits them, without keeping them.
func arrayLen(data []byte) int {
	n := 0
	i := skipSpace(data, 1)
	for i < len(data) && data[i] != ']' {
		n++
		i = skipSpace(data, valueEnd(data, i))
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	return n
}

// arrayElements returns the elements of the JSON array data (absent or null:
// none), or a FieldError naming path when data is not an array.
func arrayElements(path string, data json.RawMessage) ([]json.RawMessage, error) {
	if isAbsent(data) {
		return nil, nil
	}
	if data[0] != '[' {
		return nil, fieldErr(path, "expected an array, got %s", jsonKind(data))
	}
	return splitArray(data), nil
}

// trimSpace trims JSON whitespace from both ends of data.
func trimSpace(data []byte) []byte {
	return bytes.TrimFunc(data, func(r rune) bool { return r < 0x80 && jsonSpace(byte(r)) })
}

var jsonFieldsCache sync.Map // reflect.Type -> map[string]int

// cachedJSONFields is jsonFields, computed once a type.
func cachedJSONFields(t reflect.Type) map[string]int {
	if f, ok := jsonFieldsCache.Load(t); ok {
		return f.(map[string]int)
	}
	f := jsonFields(t)
	jsonFieldsCache.Store(t, f)
	return f
}

// InputFlag is --max-input-bytes (a pflag.Value): the size limit of a
// scenario file (ParseMaxInputBytes).
type InputFlag int64

func (f *InputFlag) String() string { return strconv.FormatInt(int64(*f), 10) }

// Type names the flag's value in help.
func (f *InputFlag) Type() string { return "bytes" }

// Set parses s.
func (f *InputFlag) Set(s string) error {
	n, err := ParseMaxInputBytes(s)
	if err == nil {
		*f = InputFlag(n)
	}
	return err
}
