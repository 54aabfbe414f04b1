package scenarios

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestNamedAreCopies: the named scenarios are parsed once, yet each caller
// gets its own: what one changes, down to an event's broker and a segment,
// the next Lookup and Named do not see; and they equal a fresh parse.
func TestNamedAreCopies(t *testing.T) {
	fresh := parseNamed()
	if diff := cmp.Diff(fresh, append(Named(), NamedBrokerScale()...), cmpopts.SortSlices(func(a, b *Scenario) bool { return a.Name < b.Name })); diff != "" {
		t.Fatalf("Named and NamedBrokerScale differ from a fresh parse (-parse +Named):\n%s", diff)
	}
	for _, sc := range Named() {
		if sc.BrokerScale() {
			t.Errorf("Named holds the broker-scale %s", sc.Name)
		}
	}
	for _, want := range fresh {
		sc, ok := Lookup(want.Name)
		if !ok || !IsNamed(want.Name) {
			t.Fatalf("Lookup(%q): not found", want.Name)
		}
		sharesNothing(t, want.Name, reflect.ValueOf(sc), reflect.ValueOf(lookup(want.Name)))
		sc.Name, sc.Config.SegmentBytes = "changed", -1
		for i := range sc.Events {
			if sc.Events[i].Broker != nil {
				*sc.Events[i].Broker = 99
			}
			sc.Events[i].Type = "changed"
		}
		if sc.Initial != nil && len(sc.Initial.LocalSegments) > 0 {
			sc.Initial.LocalSegments[0].BaseOffset = -7
		}
		sc.Events = append(sc.Events, Event{Type: EventCrash})
		again, _ := Lookup(want.Name)
		if diff := cmp.Diff(want, again); diff != "" {
			t.Errorf("%s: a change to one Lookup's scenario shows in the next (-want +got):\n%s", want.Name, diff)
		}
	}
	if _, ok := Lookup("no-such"); ok || IsNamed("no-such") {
		t.Errorf("no-such is named")
	}
}

// sharesNothing fails if a and b, equal values, share any pointer, slice
// element or map.
func sharesNothing(t *testing.T, path string, a, b reflect.Value) {
	t.Helper()
	switch a.Kind() {
	case reflect.Pointer:
		if !a.IsNil() {
			if a.Pointer() == b.Pointer() {
				t.Errorf("%s: shared pointer", path)
			}
			sharesNothing(t, path, a.Elem(), b.Elem())
		}
	case reflect.Slice:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			t.Errorf("%s: shared slice", path)
		}
		for i := range a.Len() {
			sharesNothing(t, path+"[]", a.Index(i), b.Index(i))
		}
	case reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			t.Errorf("%s: shared map", path)
		}
	case reflect.Struct:
		for i := range a.NumField() {
			sharesNothing(t, path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i))
		}
	case reflect.Array:
		for i := range a.Len() {
			sharesNothing(t, path, a.Index(i), b.Index(i))
		}
	}
}

// BenchmarkLookup: a --scenario lookup as it was (every embedded scenario
// parsed and validated again) and as it is (parsed once, the one asked for
// copied); simrun run of a file looks three times (Select, ShadowWarning,
// the outputs check), of a named scenario once more per Named.
func BenchmarkLookup(b *testing.B) {
	b.Run("reparse", func(b *testing.B) {
		for range b.N {
			for _, sc := range parseNamed() {
				if sc.Name == "local-retention-sweep" {
					break
				}
			}
		}
	})
	b.Run("parsed-once", func(b *testing.B) {
		for range b.N {
			if _, ok := Lookup("local-retention-sweep"); !ok {
				b.Fatal("not found")
			}
		}
	})
	b.Run("is-named", func(b *testing.B) {
		for range b.N {
			if !IsNamed("no-such") {
				continue
			}
		}
	})
	b.Run("named-all-copies", func(b *testing.B) {
		for range b.N {
			_ = Named()
		}
	})
}
