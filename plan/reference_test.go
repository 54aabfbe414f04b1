package plan_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"tierfetch/plan"
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

// TestPlanReferenceIsComplete: the plan object's section of
// docs/reference/result.md names every field simrun plan --json prints.
func TestPlanReferenceIsComplete(t *testing.T) {
	data, err := os.ReadFile("../docs/reference/result.md")
	if err != nil {
		t.Fatal(err)
	}
	_, doc, ok := strings.Cut(string(data), "\n## Plan object")
	if !ok {
		t.Fatal("docs/reference/result.md has no section \"## Plan object\"")
	}
	names := jsonFieldNames(reflect.TypeOf(plan.Result{}), map[reflect.Type]bool{})
	if len(names) < 30 {
		t.Fatalf("found %d names to look for, too few: did the plan's types change?", len(names))
	}
	for _, n := range names {
		if !strings.Contains(doc, "`"+n+"`") {
			t.Errorf("docs/reference/result.md, the plan object, does not name `%s`", n)
		}
	}
}
