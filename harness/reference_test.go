package harness_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
)

// jsonFieldNames walks a type's fields (through pointers, slices, maps and
// embedded structs) and returns every JSON name it can print.
func jsonFieldNames(typ reflect.Type, seen map[reflect.Type]bool) []string {
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || seen[typ] {
		return nil
	}
	seen[typ] = true
	var out []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
		out = append(out, jsonFieldNames(f.Type, seen)...)
	}
	return out
}

// TestResultReferenceIsComplete: docs/reference/result.md names every field
// of the result object, every outcome, bootstrap path and retry reason.
func TestResultReferenceIsComplete(t *testing.T) {
	data, err := os.ReadFile("../docs/reference/result.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	names := jsonFieldNames(reflect.TypeOf(harness.Result{}), map[reflect.Type]bool{})
	// cmd/simrun adds these two to the object it prints.
	names = append(names, "simrun_version", "command")
	names = append(names, harness.OutcomeOK, harness.OutcomeSafety, harness.OutcomeLiveness, harness.OutcomeBudget)
	names = append(names, model.RetryReasonNames()...)
	for p := model.PathFromZero; p <= model.PathEarliestPendingUpload; p++ {
		names = append(names, p.String())
	}
	if len(names) < 40 {
		t.Fatalf("found %d names to look for, too few: did the result's types change?", len(names))
	}
	for _, n := range names {
		if !strings.Contains(doc, "`"+n+"`") {
			t.Errorf("docs/reference/result.md does not name `%s`", n)
		}
	}
}
