package scenarios

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// DecodeStrict decodes one JSON object into v as strictly as a scenario
// file: valid JSON, one object, keys exactly the fields' (no unknown,
// duplicate or case-folded key, no null where an object is wanted), no
// trailing data. Shard files and their lines are read with it.
func DecodeStrict(data []byte, v any) error { return decodeStrictValue(data, v) }

// checkKeys walks the valid JSON value data against type t and refuses what
// encoding/json lets through: a duplicate key (it keeps the last), a key
// that matches a field only without regard to case, a top-level or nested
// null where an object is wanted.
func checkKeys(path string, data []byte, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if isAbsent(data) {
		if path == "" {
			return fmt.Errorf("want a JSON object, got null")
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if data[0] != '{' {
			return fmt.Errorf("%swant an object, got %s", prefix(path), jsonKind(data))
		}
		ms, err := splitObject(data)
		if err != nil {
			return err
		}
		fields := encodedFields(t)
		seen := make(map[string]bool, len(ms))
		for _, m := range ms {
			p := joinPath(path, m.key)
			idx, ok := fields[m.key]
			switch {
			case !ok:
				return fmt.Errorf("%s: %s", p, unknownFieldMsg(m.key, fields))
			case seen[m.key]:
				return fmt.Errorf("%s: duplicate field", p)
			}
			seen[m.key] = true
			if err := checkKeys(p, m.value, t.Field(idx).Type); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		if data[0] != '[' || t.Elem().Kind() == reflect.Uint8 {
			return nil // the decoder reports a wrong type
		}
		if err := nullElement(path, data, t); err != nil {
			return err
		}
		for i, el := range splitArray(data) {
			if err := checkKeys(fmt.Sprintf("%s[%d]", path, i), el, t.Elem()); err != nil {
				return err
			}
		}
	}
	return nil
}

// nullElement refuses a null element of the JSON array data decoded into a
// slice or array of type t whose elements are numbers, strings or bools:
// encoding/json would leave it the zero value ([0, null] read as [0, 0]).
func nullElement(path string, data []byte, t reflect.Type) error {
	if k := t.Kind(); k != reflect.Slice && k != reflect.Array || len(data) == 0 || data[0] != '[' {
		return nil
	}
	switch t.Elem().Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Struct, reflect.Slice, reflect.Map:
		return nil
	}
	for i, el := range splitArray(data) {
		if isAbsent(el) {
			return fieldErr(fmt.Sprintf("%s[%d]", path, i), "expected %s, got null", describeType(t.Elem()))
		}
	}
	return nil
}

func prefix(path string) string {
	if path == "" {
		return ""
	}
	return path + ": "
}

// decodeStrictValue is DecodeStrict's core: valid JSON, one object, keys
// exactly the fields' (checkKeys), no trailing data.
func decodeStrictValue(data []byte, v any) error {
	if !json.Valid(data) {
		var x any
		if err := json.Unmarshal(data, &x); err != nil {
			return err
		}
		return fmt.Errorf("invalid JSON")
	}
	data = trimSpace(data)
	if err := checkKeys("", data, reflect.TypeOf(v)); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// encodedFields maps the names encoding/json writes for t's fields (the tag's
// name, else the Go name of an exported field) to their indexes.
func encodedFields(t reflect.Type) map[string]int {
	fields := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported():
		case name != "":
			fields[name] = i
		default:
			fields[f.Name] = i
		}
	}
	return fields
}
